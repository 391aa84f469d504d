import type { BrowserWindowConstructorOptions } from 'electron';
import type { HeaderMap, SessionLike, WebContentsLike } from './electron-api.ts';

/**
 * Enforced by the shell on every response of the app's origin, whatever the server sends: only
 * the app's own scripts, styles and API, no inline code, no plugins, no framing.
 */
export const DESKTOP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Writing text to the clipboard (the GUI's copy buttons); every other permission is refused. */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** Pages of the server that are not the GUI: shown in the user's browser, not in the app window. */
const NOT_GUI_PATH = /^\/(api|inbox)(\/|$)/;

export function mainWindowOptions(options: { preloadPath: string; dev: boolean; title: string }): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 860,
    minWidth: 800,
    minHeight: 560,
    title: options.title,
    show: false,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: options.dev,
    },
  };
}

export type NavigationDecision = 'allow' | 'open-externally' | 'block';

/** What a link or navigation to `url` may do, seen from the app's origin. */
export function navigationDecision(url: string, appOrigin: string): NavigationDecision {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'block';
  }
  if (target.origin === appOrigin) return NOT_GUI_PATH.test(target.pathname) ? 'open-externally' : 'allow';
  if (target.protocol === 'https:' || target.protocol === 'http:' || target.protocol === 'mailto:') return 'open-externally';
  return 'block';
}

/**
 * Every web contents of the app: navigation away from the GUI is cancelled (web links open in the
 * browser), new windows are denied (a GUI page asked for in a new window opens in a new app
 * window of main's own making, when openInApp is given), webviews are never attached.
 */
export function guardWebContents(
  contents: WebContentsLike,
  appOrigin: () => string | undefined,
  openExternal: (url: string) => void,
  /** Opens a GUI page (a Ctrl+clicked task, say) in a new app window, signed in like the first. */
  openInApp?: (url: string) => void,
): void {
  const onNavigate = (event: { preventDefault(): void }, url: string) => {
    const origin = appOrigin();
    const decision = origin ? navigationDecision(url, origin) : 'block';
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-externally') openExternal(url);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const origin = appOrigin();
    const decision = origin ? navigationDecision(url, origin) : 'block';
    if (decision === 'allow' && openInApp) openInApp(url);
    else if (decision !== 'block') openExternal(url);
    return { action: 'deny' };
  });
}

/** Adds the CSP to the app origin's responses (replacing the server's) and answers permission requests. */
export function secureSession(session: SessionLike, appOrigin: string): void {
  session.webRequest.onHeadersReceived({ urls: [`${appOrigin}/*`] }, (details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders ?? {}) });
  });
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(GRANTED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_contents, permission) => GRANTED_PERMISSIONS.has(permission));
}

export function withContentSecurityPolicy(headers: HeaderMap): HeaderMap {
  const result: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value;
  }
  result['Content-Security-Policy'] = [DESKTOP_CONTENT_SECURITY_POLICY];
  return result;
}
