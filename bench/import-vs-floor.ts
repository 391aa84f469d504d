import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyDataDir, databaseFileOf } from './big-org.ts';
import { childPids } from '../test/support/processes.ts';
import { peakRssMbOf, treeCpuSeconds } from './proc-stat.ts';
import { sampleTreeMemory, type TreeMemory } from './process-memory.ts';
import { importAndPoll, round, startChildServer } from './support.ts';

export interface ImportVsFloor {
  seconds: number;
  /** Of seconds: from POST to the 202 answer (the upload stored and checked). */
  uploadSeconds: number;
  floorSeconds: number;
  /**
   * CPU seconds (all threads) of the server process and its import worker processes from POST to
   * COMPLETED, and of the floor: the same comparison, less at the mercy of a busy machine.
   */
  cpuSeconds: number;
  /** The part of cpuSeconds spent in the import worker processes (start-up included when the import started one). */
  workerCpuSeconds: number;
  floorCpuSeconds: number;
  floorRows: number;
  ratio: number;
  peakRssMb: number;
  /** Peak RSS of the import worker process (the import runs there, not in the server). */
  workerPeakRssMb: number;
  /** The server and all its child processes (import worker, upload readers) sampled every 100 ms from POST to COMPLETED. */
  memory: TreeMemory;
  pollMs: number[];
  task: Record<string, unknown>;
}

/**
 * Writes the disk's dirty pages out (`sync`) before a measured run: what the copy of the data dir
 * or the run before left in the page cache would otherwise be written back during the next run
 * (the import, which runs after its floor, paid for the floor's writes: 200,000 appointment rows
 * measured 1.23x to 2.04x minutes apart).
 */
function settleDisk(): void {
  execFileSync('sync');
}

/**
 * One import measured against its floor in the same run, each on its own copy of the same data
 * dir: the floor (bench/floor.ts) first, then the real server (a child process) from POST to COMPLETED.
 */
export async function importVsFloor(input: {
  template: string;
  organizationUuid: string;
  file: string;
  endpoint: string;
  floor: (dbFile: string, csvFile: string, organizationUuid: string) => Promise<{ seconds: number; rows: number }>;
}): Promise<ImportVsFloor> {
  const floorDir = copyDataDir(input.template, fs.mkdtempSync(path.join(os.tmpdir(), 'qr-floor-')));
  settleDisk();
  let floor;
  const floorCpu = process.cpuUsage();
  try {
    floor = await input.floor(databaseFileOf(floorDir), input.file, input.organizationUuid);
  } finally {
    fs.rmSync(floorDir, { recursive: true, force: true });
  }
  const floorCpuUsed = process.cpuUsage(floorCpu);
  const floorCpuSeconds = (floorCpuUsed.user + floorCpuUsed.system) / 1e6;
  const serverDir = copyDataDir(input.template, fs.mkdtempSync(path.join(os.tmpdir(), 'qr-import-')));
  settleDisk();
  const server = await startChildServer(serverDir);
  let result;
  let peakRssMb: number;
  let workerPeakRssMb = NaN;
  let memory: TreeMemory;
  let cpuSeconds: number;
  let workerCpuSeconds: number;
  try {
    const cpuBefore = treeCpuSeconds(server.child.pid);
    const sampler = sampleTreeMemory(server.child.pid as number);
    try {
      result = await importAndPoll(server, input.file, path.basename(input.file), input.endpoint);
    } finally {
      memory = sampler.stop();
    }
    const cpuAfter = treeCpuSeconds(server.child.pid);
    cpuSeconds = cpuAfter.total - cpuBefore.total;
    workerCpuSeconds = cpuAfter.children - cpuBefore.children;
    workerPeakRssMb = Math.max(...childPids(server.child.pid).map(peakRssMbOf));
  } catch (error) {
    const log = path.join(serverDir, 'logs', 'qr-sandbox.log');
    if (fs.existsSync(log))
      process.stderr.write(`server log, last lines:\n${fs.readFileSync(log, 'utf8').split('\n').slice(-30).join('\n')}\n`);
    process.stderr.write(`server exit: ${String(server.child.exitCode)} ${String(server.child.signalCode)}\n`);
    throw error;
  } finally {
    peakRssMb = server.peakRssMb();
    await server.stop();
    fs.rmSync(serverDir, { recursive: true, force: true });
  }
  return {
    ...result,
    floorSeconds: floor.seconds,
    floorRows: floor.rows,
    ratio: result.seconds / floor.seconds,
    peakRssMb,
    workerPeakRssMb,
    memory,
    cpuSeconds,
    workerCpuSeconds,
    floorCpuSeconds,
  };
}

/** The JSON of one import-vs-floor case. */
export function floorReport(run: ImportVsFloor) {
  return {
    import: round(run.seconds),
    import_upload: round(run.uploadSeconds),
    floor: round(run.floorSeconds),
    ratio: round(run.ratio),
    floor_rows: run.floorRows,
    cpu: {
      import: round(run.cpuSeconds),
      import_worker: round(run.workerCpuSeconds),
      floor: round(run.floorCpuSeconds),
      ratio: round(run.cpuSeconds / run.floorCpuSeconds),
    },
  };
}
