import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { createIpcHandlers } from '../../main/ipc.ts';
import type { PickedFile, QrSandboxDesktopApi } from '../../preload/api.ts';
import { FakeElectron } from './support/fake-electron.ts';
import { loadSandboxedPreload, pageEvent } from './support/sandboxed-preload.ts';

const PRELOAD = fileURLToPath(new URL('../../preload/preload.cts', import.meta.url));

function load() {
  const preload = loadSandboxedPreload(PRELOAD);
  const api = preload.exposed.get('qrSandbox') as QrSandboxDesktopApi | undefined;
  assert.ok(api, 'window.qrSandbox is exposed');
  return { ...preload, api };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('preload script', () => {
  it("runs in the sandbox: requires only 'electron' and exposes exactly window.qrSandbox", () => {
    const { exposed, required, api } = load();
    assert.deepEqual(required, ['electron']);
    assert.deepEqual([...exposed.keys()], ['qrSandbox']);
    assert.deepEqual(Object.keys(api).sort(), [
      'appVersion',
      'getConnection',
      'onImportFile',
      'openImportFile',
      'revealInFolder',
      'saveFile',
    ]);
    for (const value of Object.values(api)) assert.equal(typeof value, 'function', 'functions only: no ipcRenderer, no Node objects');
  });

  it('forwards each call to its channel with its arguments and returns the answer', async () => {
    const { api, ipc } = load();
    ipc.answers.set('qr-sandbox:get-connection', { baseUrl: 'http://127.0.0.1:1' });
    ipc.answers.set('qr-sandbox:app-version', '0.1.0');
    assert.deepEqual(await api.getConnection(), { baseUrl: 'http://127.0.0.1:1' });
    assert.equal(await api.appVersion(), '0.1.0');
    await api.openImportFile();
    await api.saveFile({ suggestedName: 'errors.csv', data: 'a,b' });
    await api.revealInFolder('/data/uploads/x.csv');
    assert.deepEqual(ipc.invocations, [
      { channel: 'qr-sandbox:get-connection', args: [] },
      { channel: 'qr-sandbox:app-version', args: [] },
      { channel: 'qr-sandbox:open-import-file', args: [] },
      { channel: 'qr-sandbox:save-file', args: [{ suggestedName: 'errors.csv', data: 'a,b' }] },
      { channel: 'qr-sandbox:reveal-in-folder', args: ['/data/uploads/x.csv'] },
    ]);
  });

  it('invokes exactly the channels main handles', async () => {
    const { api, ipc } = load();
    await Promise.all([
      api.getConnection(),
      api.appVersion(),
      api.openImportFile(),
      api.saveFile({ suggestedName: 'a', data: '' }),
      api.revealInFolder('/a'),
    ]);
    const electron = new FakeElectron({ userDataDir: '/tmp' });
    const handled = Object.keys(
      createIpcHandlers({ electron, window: () => undefined, connection: () => undefined, dataDir: () => undefined }),
    );
    assert.deepEqual([...new Set(ipc.invocations.map((call) => call.channel))].sort(), handled.sort());
  });

  it('passes files from the File menu to every import listener until it unsubscribes', () => {
    const { api, ipc } = load();
    const first: PickedFile[] = [];
    const second: PickedFile[] = [];
    const unsubscribe = api.onImportFile((file) => first.push(file));
    api.onImportFile((file) => second.push(file));
    const file: PickedFile = { name: 'a.csv', size: 3, type: 'text/csv', data: new Uint8Array([1, 2, 3]) };
    ipc.receive('qr-sandbox:import-file', file);
    unsubscribe();
    ipc.receive('qr-sandbox:import-file', { ...file, name: 'b.csv' });
    assert.deepEqual(
      first.map((f) => f.name),
      ['a.csv'],
    );
    assert.deepEqual(
      second.map((f) => f.name),
      ['a.csv', 'b.csv'],
    );
    assert.throws(() => api.onImportFile('not a function' as unknown as (file: PickedFile) => void), /needs a function/);
  });

  it('turns files dropped on the window into import files instead of navigating to them', async () => {
    const { api, dispatch } = load();
    const received: PickedFile[] = [];
    api.onImportFile((file) => received.push(file));
    const dragover = pageEvent([]);
    dispatch('dragover', dragover);
    assert.equal(dragover.defaultPrevented, true, 'the window accepts drops');
    const drop = pageEvent([
      new File(['location\n1 Main St\n'], 'sites.csv', { type: 'text/csv' }),
      new File(['[]'], 'more.json', { type: 'application/json' }),
    ]);
    dispatch('drop', drop);
    assert.equal(drop.defaultPrevented, true, 'the file is not opened as a page');
    while (received.length < 2) await flush();
    assert.deepEqual(
      received.map((f) => [f.name, f.type, f.size, Buffer.from(f.data).toString()]),
      [
        ['sites.csv', 'text/csv', 19, 'location\n1 Main St\n'],
        ['more.json', 'application/json', 2, '[]'],
      ],
    );
  });

  it('leaves a drop the page handled itself to the page', async () => {
    const { api, dispatch } = load();
    const received: PickedFile[] = [];
    api.onImportFile((file) => received.push(file));
    dispatch('drop', pageEvent([new File(['x'], 'x.csv')], true));
    await flush();
    await flush();
    assert.deepEqual(received, []);
  });
});
