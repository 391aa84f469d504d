#!/usr/bin/env node
// Plain JavaScript on purpose: it must run on any Node, to hand over to the project's Node 22 or explain.
import { spawn } from 'node:child_process';
import v8 from 'node:v8';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** On Linux (glibc), unless the user set it: process.execve is there from Node 22.15. */
function needsMallocThreshold() {
  return process.platform === 'linux' && process.env.MALLOC_MMAP_THRESHOLD_ === undefined && typeof process.execve === 'function';
}

const isRecent = ([major, minor]) => major > 22 || (major === 22 && minor >= 18);
const forwardedSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs this same file with the Node 22 that npm ci installs (the `node` devDependency); resolves with its exit status. */
function runWithProjectNode(node) {
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // The child shares the terminal: Ctrl+C reaches it directly; a kill sent to this process alone is passed on.
  const relay = (signal) => child.kill(signal);
  for (const signal of forwardedSignals) process.on(signal, relay);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`Could not start ${node}: ${error.message}\n`);
      resolve(2);
    });
    child.on('close', (code, signal) => resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15)));
  });
}

if (!isRecent(process.versions.node.split('.').map(Number))) {
  const projectNode = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  if (fs.existsSync(projectNode) && process.env.QR_SANDBOX_REEXEC !== '1') {
    process.env.QR_SANDBOX_REEXEC = '1';
    process.exitCode = await runWithProjectNode(projectNode);
  } else {
    process.stderr.write(
      `QR Sandbox needs Node.js 22.18 or later; this is ${process.version}.\n` +
        'Run npm ci in the QR Sandbox folder (it installs Node 22 into node_modules, which qr-sandbox then uses),\n' +
        'or install Node 22 LTS.\n',
    );
    process.exitCode = 2;
  }
} else if (process.argv[2] === 'serve' && needsMallocThreshold()) {
  // glibc reads its settings once, as the process starts: the server starts again in this same
  // process (same pid, stdio and signals) with blocks of 256 KB or more mapped on their own and
  // given back when freed. Without it the upload buffers it frees stay in the process: 15 MB of
  // the server during a 200,000-row import (docs/performance.md). The import workers set the same
  // (server/imports/workers/worker-process.ts, MALLOC_MMAP_THRESHOLD).
  process.execve(process.execPath, [process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: '262144',
  });
} else {
  // The server's young generation stays at its first size (1 MB a semi-space) instead of growing to
  // 16 MB: its garbage is a request's, small and short-lived (imports and reads of uploads run in
  // worker processes), and the grown space stayed committed, 25 MB of the server's memory at rest
  // (docs/performance.md). Set before the server's modules load: loading them grew it.
  if (process.argv[2] === 'serve') v8.setFlagsFromString('--semi-space-growth-factor=1');
  const { main } = await import('../server/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
