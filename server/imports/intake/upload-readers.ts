import { ApiError } from '../../http/errors.ts';
import { ImportInputError } from '../errors.ts';
import type { UploadRead, WorkerConfig } from '../workers/worker-messages.ts';
import { type ReadAnswer, UploadReader } from './upload-reader.ts';

/** A reader not ready to read this long after a read was handed to it (process start, geocoder) is ended, and the read refused. */
const READER_START_LIMIT_MS = 60_000;
/** The share of its deadline a read must still have to be started; one with less is refused at once. */
const MIN_TIME_LEFT = 0.1;

export interface UploadReadersOptions {
  config: WorkerConfig;
  /** Reader processes at most (serve --upload-readers). */
  readers: number;
  /** How long a read may take from the moment it is asked for, its wait for a reader included (serve --upload-read-seconds). */
  deadlineMs: number;
  /** An idle reader ends after this long (serve --worker-idle-seconds): it holds about 100 MB, 150 with the geocoder loaded. */
  idleMs: number;
}

interface Read {
  organization: string;
  request: UploadRead;
  askedAt: number;
  /** Asked for while this organization had an earlier read in progress or waiting. */
  behindOwn: boolean;
  timer: NodeJS.Timeout;
  reader?: UploadReader;
  /** When it was handed to its reader. */
  handedAt?: number;
  resolve(result: ReadAnswer): void;
  reject(error: Error): void;
}

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} s`;
const limit = (deadlineMs: number) => `${seconds(deadlineMs)}, the deadline for reading an upload (serve --upload-read-seconds)`;

/** What a read does, for messages: "Reading the file's first rows". */
function doing(request: UploadRead): string {
  if (request.op === 'layout') return "Reading the file's header";
  if (request.op === 'preview') return "Reading the file's first rows";
  return "Checking the draft's rows";
}

/**
 * The upload readers: reads of uploads before any task starts (a preview, an import's header, a
 * draft's row checks), each in a reader process of its own (upload-reader.ts), with a deadline.
 *
 * - Fair: each organization reads one upload at a time (its other reads queue behind it), and
 *   organizations take turns for the readers, so one organization's files hold one reader at most.
 * - Bounded: a read has `deadlineMs` from the moment it is asked for (its reader's own start, not
 *   the file's doing, does not count). Past it, a read still waiting is refused (503, try again); a
 *   read in progress is stopped by ending its process (400 naming the deadline), which frees the
 *   reader for the next.
 * - Isolated: a reader that dies (out of memory, a crash) fails only the read it was doing, with
 *   the reason; the next read gets a new reader.
 * - Lean at rest: readers start on demand, up to `readers` (one spare while any is reading); an
 *   idle one ends after `idleMs`.
 */
export class UploadReaders {
  private readonly options: UploadReadersOptions;
  private readonly readers = new Set<UploadReader>();
  private readonly idleTimers = new Map<UploadReader, NodeJS.Timeout>();
  /** Reads waiting, by organization, in the order the organizations get their turn. */
  private readonly waiting = new Map<string, Read[]>();
  /** The read in progress of each organization that has one. */
  private readonly reading = new Map<string, Read>();
  private stopping = false;

  constructor(options: UploadReadersOptions) {
    this.options = options;
  }

  /** Starts a reader ahead of a request (a process takes a few hundred milliseconds to start) unless one is idle. */
  warm(): void {
    if (this.stopping || this.idleReader() || this.readers.size >= this.options.readers) return;
    this.becameIdle(this.spawn());
  }

  run(request: UploadRead): Promise<ReadAnswer> {
    if (this.stopping) return Promise.reject(shuttingDown());
    const organization = request.organizationUuid;
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(organization) ?? [];
      const read: Read = {
        organization,
        request,
        askedAt: Date.now(),
        behindOwn: this.reading.has(organization) || queue.length > 0,
        timer: setTimeout(() => this.expire(read), this.options.deadlineMs),
        resolve,
        reject,
      };
      this.waiting.set(organization, queue);
      queue.push(read);
      this.dispatch();
    });
  }

  /** Ends the readers that have nothing to do now (an import starts: its worker needs the memory more). */
  endIdle(): void {
    for (const reader of this.readers) {
      if (!reader.idle) continue;
      clearTimeout(this.idleTimers.get(reader));
      this.idleTimers.delete(reader);
      this.readers.delete(reader);
      reader.terminate();
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const queue of this.waiting.values()) for (const read of queue) this.settle(read).reject(shuttingDown());
    this.waiting.clear();
    const exited = [...this.readers].map((reader) => reader.exited);
    for (const reader of this.readers) reader.abandon(shuttingDown());
    await Promise.all(exited);
  }

  /** Gives free readers to the organizations waiting, each in turn, one read per organization at a time. */
  private dispatch(): void {
    if (this.stopping) return;
    for (const organization of [...this.waiting.keys()]) {
      if (this.reading.has(organization)) continue;
      if (!this.idleReader() && this.readers.size >= this.options.readers) break;
      const read = this.nextOf(organization);
      if (read) this.start(read, this.idleReader(organization) ?? this.spawn());
    }
    this.keepSpare();
  }

  /**
   * The organization's next read, taken from its queue, which goes to the back of the line (the
   * organizations waiting go first next time). A read with almost no time left would be stopped as
   * it began: it is refused now instead, and costs no reader.
   */
  private nextOf(organization: string): Read | undefined {
    const queue = this.waiting.get(organization) ?? [];
    this.waiting.delete(organization);
    let read = queue.shift();
    while (read && read.askedAt + this.options.deadlineMs - Date.now() < this.options.deadlineMs * MIN_TIME_LEFT) {
      this.refuse(read);
      read = queue.shift();
    }
    if (queue.length > 0) this.waiting.set(organization, queue);
    return read;
  }

  /**
   * While reads are in progress, one more reader is started if there is room, so the next
   * organization's read does not wait for a process to start (seconds on a busy machine). Not for
   * an import's header read alone: it ends in milliseconds, and the import that follows it needs
   * the memory and the CPU a spare would take.
   */
  private keepSpare(): void {
    if (this.idleReader() || this.readers.size >= this.options.readers) return;
    if (![...this.reading.values()].some((read) => read.request.op !== 'layout')) return;
    this.becameIdle(this.spawn());
  }

  private start(read: Read, reader: UploadReader): void {
    clearTimeout(this.idleTimers.get(reader));
    this.idleTimers.delete(reader);
    read.reader = reader;
    read.handedAt = Date.now();
    reader.lastOrganization = read.organization;
    this.reading.set(read.organization, read);
    reader.read(read.request).then(
      (result) => this.finish(read, reader).resolve(result),
      (error: Error) => this.finish(read, reader).reject(error),
    );
  }

  private finish(read: Read, reader: UploadReader): Read {
    this.settle(read);
    if (this.reading.get(read.organization) === read) this.reading.delete(read.organization);
    if (reader.idle) this.becameIdle(reader);
    this.dispatch();
    return read;
  }

  /**
   * A reader began on the file itself. The time before, since the read was handed to it (a
   * process start, loading the geocoder: seconds on a busy machine), is the reader's, not the
   * file's: it does not count against the read's deadline.
   */
  private began(reader: UploadReader): void {
    const read = [...this.reading.values()].find((r) => r.reader === reader);
    const since = reader.readingSince;
    if (!read || read.handedAt === undefined || since === undefined) return;
    clearTimeout(read.timer);
    const due = read.askedAt + this.options.deadlineMs + (since - read.handedAt);
    read.timer = setTimeout(() => this.expire(read), Math.max(0, due - Date.now()));
  }

  /** The read's deadline: refused if it is still waiting, stopped (its reader ended) if it is being read. */
  private expire(read: Read): void {
    const reader = read.reader;
    if (reader && read.handedAt !== undefined && reader.readingSince === undefined) {
      // Its reader is still getting ready: began() sets the deadline again, unless that takes too long.
      const getting = Date.now() - read.handedAt;
      if (getting < READER_START_LIMIT_MS) {
        read.timer = setTimeout(() => this.expire(read), READER_START_LIMIT_MS - getting);
        return;
      }
      reader.abandon(
        new ApiError(
          'SERVICE_UNAVAILABLE',
          `The upload reader did not get ready within ${seconds(READER_START_LIMIT_MS)} (its process start, loading the geocoder): the machine is too busy. Try again in a moment.`,
        ),
      );
      return;
    }
    if (read.reader) {
      const waited = (read.handedAt ?? read.askedAt) - read.askedAt;
      const stopped = `${doing(read.request)} took longer than ${limit(this.options.deadlineMs)}, so it was stopped${waited >= 1000 ? ` (it waited ${seconds(waited)} for a free reader first)` : ''}.`;
      read.reader.abandon(
        read.request.op === 'check-rows'
          ? new ApiError('SERVICE_UNAVAILABLE', `${stopped} Try again, or change fewer rows at once.`)
          : new ImportInputError(
              `${stopped} A file this slow to read is too large or too complex: save it as CSV or split it, or start the server with a longer --upload-read-seconds.`,
            ),
      );
      return;
    }
    const queue = this.waiting.get(read.organization) ?? [];
    queue.splice(queue.indexOf(read), 1);
    if (queue.length === 0) this.waiting.delete(read.organization);
    this.refuse(read);
  }

  /** A read that could not start in time: 503, saying what it waited for. */
  private refuse(read: Read): void {
    const why = read.behindOwn
      ? "this organization's earlier uploads were being read first"
      : `all ${this.options.readers} upload readers (serve --upload-readers) were busy with other organizations' uploads`;
    this.settle(read).reject(
      new ApiError(
        'SERVICE_UNAVAILABLE',
        `${doing(read.request)} could not start within ${limit(this.options.deadlineMs)}: ${why}. Try again in a moment.`,
        undefined,
        { 'retry-after': String(Math.ceil(this.options.deadlineMs / 1000)) },
      ),
    );
  }

  private settle(read: Read): Read {
    clearTimeout(read.timer);
    return read;
  }

  /**
   * An idle reader, for `organization` the one it used last if idle, else one nobody has used (a
   * spare), else any: an organization keeps its warm reader (geocoder loaded), and a newcomer (an
   * attacker too) takes the spare before another organization's.
   */
  private idleReader(organization?: string): UploadReader | undefined {
    const idle = [...this.readers].filter((reader) => reader.idle);
    return (
      idle.find((reader) => organization !== undefined && reader.lastOrganization === organization) ??
      idle.find((reader) => reader.lastOrganization === undefined) ??
      idle[0]
    );
  }

  private spawn(): UploadReader {
    const reader = new UploadReader(this.options.config, {
      reading: (reading) => this.began(reading),
      exit: (ended) => {
        this.readers.delete(ended);
        clearTimeout(this.idleTimers.get(ended));
        this.idleTimers.delete(ended);
        this.dispatch();
      },
    });
    this.readers.add(reader);
    return reader;
  }

  /** An idle reader ends after `idleMs`. */
  private becameIdle(reader: UploadReader): void {
    clearTimeout(this.idleTimers.get(reader));
    const timer = setTimeout(() => {
      this.idleTimers.delete(reader);
      if (!reader.idle) return;
      this.readers.delete(reader);
      reader.terminate();
    }, this.options.idleMs);
    timer.unref();
    this.idleTimers.set(reader, timer);
  }
}

function shuttingDown(): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down; send the file again once it has started.');
}
