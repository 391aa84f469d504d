/** A reader of the server's live stream (GET /api/live, server-sent events) for commands that follow what happens. */
import { ServiceError, type ServiceClient } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';

export interface LiveMessage {
  type: string;
  data: unknown;
}

export interface LiveStream {
  /** Resolves when the stream ends: null when close() ended it, else why it ended. */
  ended: Promise<Error | null>;
  close(): void;
}

function parseBlock(block: string): LiveMessage | null {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (data === '') return null;
  try {
    const parsed = JSON.parse(data) as { type?: unknown; data?: unknown };
    return typeof parsed.type === 'string' ? { type: parsed.type, data: parsed.data } : null;
  } catch {
    return null;
  }
}

/** Opens the stream; resolves once the server has subscribed it, so nothing that happens afterwards is missed. */
export async function openLiveStream(client: ServiceClient, onMessage: (message: LiveMessage) => void): Promise<LiveStream> {
  const abort = new AbortController();
  let res: Response;
  try {
    res = await client.request('/api/live', { signal: abort.signal, headers: { accept: 'text/event-stream' } }, Number.POSITIVE_INFINITY);
  } catch (error) {
    if (error instanceof ServiceError) throw new StartupError(error.message);
    throw error;
  }
  const body = res.body;
  if (!body) throw new StartupError(`${client.baseUrl}/api/live answered without a stream.`);
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async (): Promise<Error | null> => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return abort.signal.aborted ? null : new Error(`${client.baseUrl} ended the live stream (the server stopped?).`);
        buffer += value.replace(/\r\n/g, '\n');
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const message = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (message) onMessage(message);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch (error) {
      return abort.signal.aborted ? null : new Error(`The live stream from ${client.baseUrl} broke: ${(error as Error).message}`);
    }
  })();
  return { ended, close: () => abort.abort() };
}
