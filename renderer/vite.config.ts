import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const rendererDir = fileURLToPath(new URL('.', import.meta.url));

/** npm run dev: the API server the dev server passes /api and /inbox to (scripts/dev.ts sets it). */
const apiTarget = process.env.QR_SANDBOX_DEV_API ?? 'http://127.0.0.1:8787';
const devPort = Number(process.env.QR_SANDBOX_DEV_PORT ?? 5173);
const devOrigins = new Set([`http://localhost:${devPort}`, `http://127.0.0.1:${devPort}`]);

/**
 * The server refuses a request whose Origin is not its own (server/http/guards.ts). The GUI's own
 * requests come from the dev server's origin: they get the API's origin; any other origin is passed
 * on unchanged, so the server still refuses cross-site requests that come through the dev server.
 */
const proxyToApi = {
  target: apiTarget,
  changeOrigin: true,
  configure: (proxy: {
    on(
      event: 'proxyReq',
      listener: (proxyReq: { getHeader(name: string): unknown; setHeader(name: string, value: string): void }) => void,
    ): void;
  }) => {
    proxy.on('proxyReq', (proxyReq) => {
      const origin = proxyReq.getHeader('origin');
      if (typeof origin === 'string' && devOrigins.has(origin)) proxyReq.setHeader('origin', new URL(apiTarget).origin);
    });
  },
};

/** The GUI bundle. renderer/scripts/build.ts builds it into dist/renderer/, which server/http/gui.ts serves. */
export default defineConfig({
  root: rendererDir,
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  server: {
    host: '127.0.0.1',
    port: devPort,
    strictPort: true,
    proxy: { '/api': proxyToApi, '/inbox': proxyToApi },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // Inline assets would need data: URLs, which the GUI's Content-Security-Policy does not allow.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      // TanStack Query marks its hooks "use client" for server components; a client-only bundle has nothing to keep.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
