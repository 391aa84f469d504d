/**
 * npm run dev [-- serve flags]: for contributors.
 * - the API server (`qr-sandbox serve`) under `node --watch`: it restarts when a file it loaded changes;
 * - the GUI from Vite's dev server (renderer/vite.config.ts): edits show at once, no build; it passes
 *   /api and /inbox on to the API server.
 * Open the dev server's URL (default http://127.0.0.1:5173). Ports: QR_SANDBOX_DEV_API_PORT (8787),
 * QR_SANDBOX_DEV_PORT (5173). Extra arguments go to serve, e.g. `npm run dev -- --demo`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const apiPort = process.env.QR_SANDBOX_DEV_API_PORT ?? '8787';
process.env.QR_SANDBOX_DEV_API = `http://127.0.0.1:${apiPort}`;

const api = spawn(process.execPath, ['--watch', 'bin/qr-sandbox.mjs', 'serve', '--port', apiPort, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});

const { createServer } = await import('vite');
const vite = await createServer({ configFile: fileURLToPath(new URL('../renderer/vite.config.ts', import.meta.url)), logLevel: 'info' });
await vite.listen();
vite.printUrls();
console.log(`  ➜  API:     ${process.env.QR_SANDBOX_DEV_API} (restarts when a server file changes)`);

let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  const apiExited =
    api.exitCode === null && api.signalCode === null ? new Promise((resolve) => api.once('exit', resolve)) : Promise.resolve();
  api.kill('SIGTERM');
  await Promise.all([vite.close(), apiExited]);
  process.exit(code);
};
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
api.once('exit', (code) => {
  if (!stopping) {
    console.error(`The API server exited (${code}).`);
    void stop(code ?? 1);
  }
});
