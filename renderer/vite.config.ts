import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const rendererDir = fileURLToPath(new URL('.', import.meta.url));

/** The GUI bundle. renderer/scripts/build.ts builds it into dist/renderer/, which server/http/gui.ts serves. */
export default defineConfig({
  root: rendererDir,
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // Inline assets would need data: URLs, which the GUI's Content-Security-Policy does not allow.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
  },
});
