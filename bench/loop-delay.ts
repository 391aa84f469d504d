import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildServer, startChildServer } from '../test/support/child-server.ts';

/** What loop-delay-probe.ts writes: the server's event-loop delay since the last reading (ms). */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
  gc_pauses: { count: number; total_ms: number; max_ms: number; major: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function restoreEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/**
 * A server child with loop-delay-probe.ts preloaded; loopDelay() reads the delay since the last
 * reading (its max is the event loop's longest block in that time) and starts anew.
 */
export async function startProbedServer(
  dataDir: string,
  extraArgs: string[] = [],
  nodeOptions?: string,
): Promise<{ server: ChildServer; loopDelay: () => Promise<LoopDelay> }> {
  const delayFile = path.join(dataDir, 'loop-delay.json');
  const probe = fileURLToPath(new URL('./loop-delay-probe.ts', import.meta.url));
  const saved = { options: process.env.NODE_OPTIONS, file: process.env.LOOP_DELAY_FILE };
  process.env.NODE_OPTIONS = [saved.options, `--import=${probe}`, nodeOptions].filter(Boolean).join(' ');
  process.env.LOOP_DELAY_FILE = delayFile;
  try {
    const server = await startChildServer(dataDir, extraArgs);
    const loopDelay = async (): Promise<LoopDelay> => {
      fs.rmSync(delayFile, { force: true });
      server.child.kill('SIGUSR2');
      for (let i = 0; i < 200 && !fs.existsSync(delayFile); i++) await sleep(25);
      return JSON.parse(fs.readFileSync(delayFile, 'utf8')) as LoopDelay;
    };
    return { server, loopDelay };
  } finally {
    restoreEnv('NODE_OPTIONS', saved.options);
    restoreEnv('LOOP_DELAY_FILE', saved.file);
  }
}
