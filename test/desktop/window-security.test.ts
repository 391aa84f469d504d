import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DESKTOP_CONTENT_SECURITY_POLICY,
  guardWebContents,
  mainWindowOptions,
  navigationDecision,
  secureSession,
} from '../../main/window-security.ts';
import { FakeSession, FakeWebContents } from './support/fake-electron.ts';

const APP = 'http://127.0.0.1:45678';

describe('main window options', () => {
  it('isolates the page: context isolation, sandbox, no Node, no webviews, the preload script', () => {
    const options = mainWindowOptions({ preloadPath: '/app/preload/preload.cjs', dev: false, title: 'QR Sandbox' });
    const web = options.webPreferences;
    assert.ok(web);
    assert.equal(web.contextIsolation, true);
    assert.equal(web.sandbox, true);
    assert.equal(web.nodeIntegration, false);
    assert.equal(web.nodeIntegrationInWorker, false);
    assert.equal(web.nodeIntegrationInSubFrames, false);
    assert.equal(web.webSecurity, true);
    assert.equal(web.allowRunningInsecureContent, false);
    assert.equal(web.webviewTag, false);
    assert.equal(web.navigateOnDragDrop, false);
    assert.equal(web.preload, '/app/preload/preload.cjs');
    assert.equal(options.show, false, 'shown once ready, never as a blank window');
  });

  it('has DevTools in development only', () => {
    assert.equal(mainWindowOptions({ preloadPath: '/p.cjs', dev: false, title: 't' }).webPreferences?.devTools, false);
    assert.equal(mainWindowOptions({ preloadPath: '/p.cjs', dev: true, title: 't' }).webPreferences?.devTools, true);
  });
});

describe('navigation rules', () => {
  it('keeps GUI pages of the app origin in the window', () => {
    assert.equal(navigationDecision(`${APP}/`, APP), 'allow');
    assert.equal(navigationDecision(`${APP}/tasks/123?x=1#y`, APP), 'allow');
  });

  it('sends API pages, inbox URLs and other web sites to the browser', () => {
    assert.equal(navigationDecision(`${APP}/api/docs`, APP), 'open-externally');
    assert.equal(navigationDecision(`${APP}/inbox/abc`, APP), 'open-externally');
    assert.equal(navigationDecision('https://www.geonames.org/', APP), 'open-externally');
    assert.equal(navigationDecision('http://127.0.0.1:9999/', APP), 'open-externally', 'another port is another origin');
    assert.equal(navigationDecision('mailto:someone@example.com', APP), 'open-externally');
  });

  it('blocks files, javascript: and other schemes, and garbage', () => {
    assert.equal(navigationDecision('file:///etc/passwd', APP), 'block');
    assert.equal(navigationDecision('javascript:alert(1)', APP), 'block');
    assert.equal(navigationDecision('data:text/html,<script>1</script>', APP), 'block');
    assert.equal(navigationDecision('smb://server/share', APP), 'block');
    assert.equal(navigationDecision('not a url', APP), 'block');
  });
});

describe('guarded web contents', () => {
  function guarded(origin: () => string | undefined = () => APP) {
    const contents = new FakeWebContents();
    const opened: string[] = [];
    guardWebContents(contents, origin, (url) => opened.push(url));
    return { contents, opened };
  }

  it('lets the GUI navigate inside the app', () => {
    const { contents, opened } = guarded();
    assert.equal(contents.navigate(`${APP}/tasks`), true);
    assert.deepEqual(opened, []);
  });

  it('cancels navigation away and opens web links in the browser', () => {
    const { contents, opened } = guarded();
    assert.equal(contents.navigate('https://example.com/help'), false);
    assert.equal(contents.navigate(`${APP}/api/docs`), false);
    assert.equal(contents.navigate('file:///home/me/import.csv'), false, 'a dropped file never replaces the GUI');
    assert.equal(contents.navigate('https://evil.example/', 'will-redirect'), false);
    assert.deepEqual(opened, ['https://example.com/help', `${APP}/api/docs`, 'https://evil.example/']);
  });

  it('denies every new window; web links open in the browser, others nowhere', () => {
    const { contents, opened } = guarded();
    assert.deepEqual(contents.openWindow('https://example.com/'), { action: 'deny' });
    assert.deepEqual(contents.openWindow(`${APP}/tasks`), { action: 'deny' });
    assert.deepEqual(contents.openWindow('file:///etc/hosts'), { action: 'deny' });
    assert.deepEqual(opened, ['https://example.com/', `${APP}/tasks`]);
  });

  it('opens a GUI page asked for in a new window (Ctrl+click on a task) in a new app window, never in the browser', () => {
    const contents = new FakeWebContents();
    const external: string[] = [];
    const inApp: string[] = [];
    guardWebContents(
      contents,
      () => APP,
      (url) => external.push(url),
      (url) => inApp.push(url),
    );
    assert.deepEqual(contents.openWindow(`${APP}/tasks/abc`), { action: 'deny' });
    assert.deepEqual(contents.openWindow(`${APP}/api/docs`), { action: 'deny' });
    assert.deepEqual(contents.openWindow('https://example.com/'), { action: 'deny' });
    assert.deepEqual(inApp, [`${APP}/tasks/abc`]);
    assert.deepEqual(external, [`${APP}/api/docs`, 'https://example.com/']);
  });

  it('refuses webviews', () => {
    const { contents } = guarded();
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    assert.equal(prevented, true);
  });

  it('blocks all navigation while the server has no address yet', () => {
    const { contents, opened } = guarded(() => undefined);
    assert.equal(contents.navigate(`${APP}/`), false);
    assert.deepEqual(opened, []);
  });
});

describe('session security', () => {
  it("replaces the response's Content-Security-Policy with the desktop one", () => {
    const session = new FakeSession();
    secureSession(session, APP);
    assert.deepEqual(session.headersFilter, { urls: [`${APP}/*`] });
    const headers = session.responseHeaders(`${APP}/`, {
      'content-type': ['text/html'],
      'content-security-policy': ["default-src * 'unsafe-inline'"],
    });
    assert.deepEqual(headers, { 'content-type': ['text/html'], 'Content-Security-Policy': [DESKTOP_CONTENT_SECURITY_POLICY] });
    assert.deepEqual(session.responseHeaders(`${APP}/assets/a.js`, {})?.['Content-Security-Policy'], [DESKTOP_CONTENT_SECURITY_POLICY]);
  });

  it('allows only the app itself: no inline script, no other origin, no framing', () => {
    const directives = new Map(DESKTOP_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    assert.deepEqual(directives.get('default-src'), ["'self'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('connect-src'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.ok(!DESKTOP_CONTENT_SECURITY_POLICY.includes('unsafe'), 'no unsafe-inline or unsafe-eval');
  });

  it('denies permission requests and checks, except writing text to the clipboard', () => {
    const session = new FakeSession();
    secureSession(session, APP);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem', 'hid', 'unknown']) {
      assert.equal(session.requestPermission(permission), false, permission);
      assert.equal(session.permissionCheckHandler?.({}, permission), false, permission);
    }
    assert.equal(session.requestPermission('clipboard-sanitized-write'), true);
  });
});
