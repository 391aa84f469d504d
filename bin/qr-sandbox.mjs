#!/usr/bin/env node
// Plain JavaScript on purpose: it must run on any Node to explain a too-old one.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `QR Sandbox needs Node.js 22.18 or later; this is ${process.version}.\n` +
      'Run it through npm (npm run serve / npm run cli), which uses the Node 22 installed by npm ci,\n' +
      'or install Node 22 LTS.\n',
  );
  process.exit(1);
}
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
