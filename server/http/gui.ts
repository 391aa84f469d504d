import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type Request, type RequestHandler } from 'express';

/** Where renderer/scripts/build.ts puts the built GUI. */
export const DEFAULT_GUI_DIR = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

/** No inline script or style, no other origin: the GUI talks to this server only. */
export const GUI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that belong to the API or the webhook receiver, never to the GUI's client-side routes. */
const NOT_GUI = /^\/(api|inbox)(\/|$)/;

const withCsp: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', GUI_CONTENT_SECURITY_POLICY);
  next();
};

function wantsPage(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && !NOT_GUI.test(req.path) && req.accepts(['html', 'json']) === 'html';
}

const notBuiltPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>QR Sandbox: GUI not built</title></head>
<body><h1>QR Sandbox is running, but its GUI has not been built</h1>
<p>The API works: see the <a href="/api/docs">API reference</a>.</p>
<p>To build the GUI, run <code>npm ci</code> and then <code>npm run build:renderer</code> in the QR Sandbox folder, and reload this page.
<code>npm run serve</code> builds it by itself when it is missing or out of date.</p></body></html>`;

/**
 * Serves the built GUI at /: hashed assets with long caching, and index.html for every other
 * page path (client-side routes such as /tasks/<uuid>). Without a build, / explains how to make one.
 */
export function registerGuiRoutes(app: Express, guiDir: string = DEFAULT_GUI_DIR): void {
  app.use(
    '/assets',
    withCsp,
    express.static(path.join(guiDir, 'assets'), { index: false, immutable: true, maxAge: '1y', fallthrough: true }),
  );
  app.use(withCsp, express.static(guiDir, { index: false, dotfiles: 'ignore', maxAge: 0 }));
  app.use(async (req, res, next) => {
    if (!wantsPage(req) || req.path.startsWith('/assets/')) {
      next();
      return;
    }
    let page: string;
    try {
      page = await fs.readFile(path.join(guiDir, 'index.html'), 'utf8');
    } catch {
      res.status(503).type('html').setHeader('Cache-Control', 'no-store').send(notBuiltPage);
      return;
    }
    res.setHeader('Content-Security-Policy', GUI_CONTENT_SECURITY_POLICY);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page);
  });
}
