import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUT } from './support.ts';

export interface BareServer {
  url: string;
  child: ChildProcess;
  /** Webhook deliveries it has received at /hook. */
  deliveries(): Promise<number>;
}

/** bench/bare-http-server.ts in its own process: answers `bodies` (path → text) and counts webhook deliveries. */
export async function startBareServer(bodies: Record<string, string>): Promise<BareServer> {
  const file = path.join(OUT, `bare-bodies-${process.pid}-${Date.now()}.json`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(bodies));
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bare-http-server.ts', import.meta.url)), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  }).finally(() => fs.rmSync(file, { force: true })); // read at its start
  const url = `http://127.0.0.1:${port}`;
  return { url, child, deliveries: async () => Number(await (await fetch(`${url}/hook/count`)).text()) };
}
