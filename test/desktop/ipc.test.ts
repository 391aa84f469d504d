import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_IMPORT_FILE_BYTES } from '../../main/import-file.ts';
import { createIpcHandlers, registerIpcHandlers } from '../../main/ipc.ts';
import type { DesktopConnection, InvokeChannel } from '../../preload/api.ts';
import { FakeElectron, type FakeBrowserWindow } from './support/fake-electron.ts';

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sandbox-ipc-'));
after(() => fs.rmSync(tempRoot, { recursive: true, force: true }));

const CONNECTION: DesktopConnection = {
  baseUrl: 'http://127.0.0.1:45678',
  apiKey: 'qrs_key',
  apiSecret: 'secret',
  organizationUuid: '0196a3b0-0000-7000-8000-000000000001',
};
const PAGE = `${CONNECTION.baseUrl}/tasks`;

function setup(options: { connection?: DesktopConnection | undefined; withWindow?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(tempRoot, 'case-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  const electron = new FakeElectron({ userDataDir: dir });
  const window: FakeBrowserWindow | undefined = options.withWindow === false ? undefined : new electron.BrowserWindow({});
  const connection = 'connection' in options ? options.connection : CONNECTION;
  registerIpcHandlers(
    electron.ipcMain,
    createIpcHandlers({ electron, window: () => window, connection: () => connection, dataDir: () => dataDir }),
  );
  const fromWindow = () => {
    if (!window) throw new Error('no window');
    return window.webContents.ipcEvent(PAGE);
  };
  return {
    electron,
    window,
    dir,
    dataDir,
    invoke: (channel: InvokeChannel, ...args: unknown[]) => electron.invoke(channel, fromWindow(), ...args),
  };
}

const ALL_CHANNELS: InvokeChannel[] = [
  'qr-sandbox:get-connection',
  'qr-sandbox:open-import-file',
  'qr-sandbox:save-file',
  'qr-sandbox:reveal-in-folder',
  'qr-sandbox:app-version',
];

describe('IPC sender checks', () => {
  it('registers a handler for every channel of preload/api.ts', () => {
    const { electron } = setup();
    assert.deepEqual([...electron.ipcHandlers.keys()].sort(), [...ALL_CHANNELS].sort());
  });

  it('refuses every channel from another web contents', async () => {
    const { electron } = setup();
    const stranger = new electron.BrowserWindow({});
    for (const channel of ALL_CHANNELS) {
      await assert.rejects(
        electron.invoke(channel, stranger.webContents.ipcEvent(PAGE)),
        /refused, the caller is not the QR Sandbox window/,
        channel,
      );
    }
  });

  it('refuses every channel from a frame of another origin, even in the app window', async () => {
    const { electron, window } = setup();
    assert.ok(window);
    for (const frameUrl of ['https://evil.example/', 'http://127.0.0.1:45679/', 'file:///tmp/x.html', 'about:blank']) {
      for (const channel of ALL_CHANNELS) {
        await assert.rejects(electron.invoke(channel, window.webContents.ipcEvent(frameUrl)), /refused/, `${channel} from ${frameUrl}`);
      }
    }
    await assert.rejects(
      electron.invoke('qr-sandbox:app-version', { sender: { id: window.webContents.id }, senderFrame: null }),
      /refused/,
    );
  });

  it('refuses calls when there is no window or it was closed', async () => {
    const closed = setup();
    closed.window?.close();
    await assert.rejects(closed.invoke('qr-sandbox:app-version'), /refused/);
    const none = setup({ withWindow: false });
    await assert.rejects(none.electron.invoke('qr-sandbox:app-version', { sender: { id: 1 }, senderFrame: { url: PAGE } }), /refused/);
  });
});

describe('qr-sandbox:get-connection', () => {
  it("answers the server's address and the demo organization's credential", async () => {
    const { invoke } = setup();
    assert.deepEqual(await invoke('qr-sandbox:get-connection'), CONNECTION);
  });

  it('refuses extra arguments', async () => {
    const { invoke } = setup();
    await assert.rejects(invoke('qr-sandbox:get-connection', 'x'), /invalid arguments/);
  });

  it('says so when the server is not running', async () => {
    const { invoke } = setup({ connection: undefined });
    await assert.rejects(invoke('qr-sandbox:get-connection'), /refused|not running/);
  });
});

describe('qr-sandbox:open-import-file', () => {
  it('shows the import dialog and returns the chosen file with its bytes and type', async () => {
    const { electron, dir, invoke } = setup();
    const file = path.join(dir, 'Sites 2026.CSV');
    fs.writeFileSync(file, 'location,name\n1 Main St Sydney NSW 2000,Main\n');
    electron.openDialogAnswers.push([file]);
    const picked = (await invoke('qr-sandbox:open-import-file')) as { name: string; size: number; type: string; data: Uint8Array };
    assert.equal(picked.name, 'Sites 2026.CSV');
    assert.equal(picked.type, 'text/csv');
    assert.equal(picked.size, fs.statSync(file).size);
    assert.ok(picked.data instanceof Uint8Array);
    assert.equal(Buffer.from(picked.data).toString('utf8'), fs.readFileSync(file, 'utf8'));
    const dialog = electron.openDialogs[0];
    assert.deepEqual(dialog?.properties, ['openFile']);
    assert.deepEqual(dialog?.filters?.[0]?.extensions, ['csv', 'xlsx', 'xls', 'ods', 'json']);
  });

  it('gives an .xls and an .ods their workbook type', async () => {
    const { electron, dir, invoke } = setup();
    for (const [name, type] of [
      ['sites.xls', 'application/vnd.ms-excel'],
      ['sites.ODS', 'application/vnd.oasis.opendocument.spreadsheet'],
    ] as const) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, 'x');
      electron.openDialogAnswers.push([file]);
      assert.equal(((await invoke('qr-sandbox:open-import-file')) as { type: string }).type, type);
    }
  });

  it('returns null when the user cancels', async () => {
    const { invoke } = setup();
    assert.equal(await invoke('qr-sandbox:open-import-file'), null);
  });

  it('refuses a file above the upload limit without reading it', async () => {
    const { electron, dir, invoke } = setup();
    const big = path.join(dir, 'huge.csv');
    const fd = fs.openSync(big, 'w');
    fs.ftruncateSync(fd, MAX_IMPORT_FILE_BYTES + 10 * 1024 * 1024);
    fs.closeSync(fd);
    electron.openDialogAnswers.push([big]);
    await assert.rejects(invoke('qr-sandbox:open-import-file'), /huge\.csv is too large to import: 266 MB, the limit is 256 MB/);
  });

  it('explains a file that vanished between choosing and reading', async () => {
    const { electron, dir, invoke } = setup();
    electron.openDialogAnswers.push([path.join(dir, 'gone.xlsx')]);
    await assert.rejects(invoke('qr-sandbox:open-import-file'), /gone\.xlsx cannot be read/);
  });
});

describe('qr-sandbox:save-file', () => {
  it('writes bytes or text where the user chose, starting the dialog at the suggested name', async () => {
    const { electron, dir, invoke } = setup();
    const target = path.join(dir, 'report.csv');
    electron.saveDialogAnswers.push(target);
    assert.deepEqual(await invoke('qr-sandbox:save-file', { suggestedName: 'errors.csv', data: new Uint8Array([0x61, 0x2c, 0x62]) }), {
      path: target,
    });
    assert.equal(fs.readFileSync(target, 'utf8'), 'a,b');
    assert.equal(path.basename(String(electron.saveDialogs[0]?.defaultPath)), 'errors.csv');
    const textTarget = path.join(dir, 'text.csv');
    electron.saveDialogAnswers.push(textTarget);
    await invoke('qr-sandbox:save-file', { suggestedName: 'text.csv', data: 'row_number,error\n2,Bad\n' });
    assert.equal(fs.readFileSync(textTarget, 'utf8'), 'row_number,error\n2,Bad\n');
  });

  it('returns null and writes nothing when the user cancels', async () => {
    const { electron, invoke } = setup();
    assert.equal(await invoke('qr-sandbox:save-file', { suggestedName: 'a.csv', data: 'x' }), null);
    assert.equal(electron.saveDialogs.length, 1);
  });

  it('refuses names with folders and malformed requests before showing a dialog', async () => {
    const { electron, invoke } = setup();
    const bad: unknown[][] = [
      [{ suggestedName: '../../.bashrc', data: 'x' }],
      [{ suggestedName: '/etc/passwd', data: 'x' }],
      [{ suggestedName: 'C:\\evil.bat', data: 'x' }],
      [{ suggestedName: '..', data: 'x' }],
      [{ suggestedName: '', data: 'x' }],
      [{ suggestedName: 'a.csv', data: 42 }],
      [{ suggestedName: 'a.csv', data: 'x', path: '/tmp/a.csv' }],
      [{ suggestedName: 'a.csv' }],
      ['a.csv', 'x'],
      [],
    ];
    for (const args of bad)
      await assert.rejects(invoke('qr-sandbox:save-file', ...args), /qr-sandbox:save-file: invalid arguments/, JSON.stringify(args));
    assert.equal(electron.saveDialogs.length, 0);
  });
});

describe('qr-sandbox:reveal-in-folder', () => {
  it('reveals files in the data folder and files the app saved', async () => {
    const { electron, dir, dataDir, invoke } = setup();
    await invoke('qr-sandbox:reveal-in-folder', path.join(dataDir, 'uploads', 'a.csv'));
    const saved = path.join(dir, 'elsewhere', 'report.xlsx');
    fs.mkdirSync(path.dirname(saved));
    electron.saveDialogAnswers.push(saved);
    await invoke('qr-sandbox:save-file', { suggestedName: 'report.xlsx', data: 'x' });
    await invoke('qr-sandbox:reveal-in-folder', saved);
    assert.deepEqual(electron.revealedPaths, [path.join(dataDir, 'uploads', 'a.csv'), saved]);
  });

  it('refuses other paths, relative paths and tricks that leave the data folder', async () => {
    const { electron, dataDir, invoke } = setup();
    await assert.rejects(invoke('qr-sandbox:reveal-in-folder', '/etc/passwd'), /only files saved by the app or in its data folder/);
    await assert.rejects(invoke('qr-sandbox:reveal-in-folder', path.join(dataDir, '..', 'secret.txt')), /only files saved by the app/);
    await assert.rejects(invoke('qr-sandbox:reveal-in-folder', `${dataDir}-other/x`), /only files saved by the app/);
    await assert.rejects(invoke('qr-sandbox:reveal-in-folder', 'data/x.csv'), /must be an absolute path/);
    await assert.rejects(invoke('qr-sandbox:reveal-in-folder', 42), /invalid arguments/);
    assert.deepEqual(electron.revealedPaths, []);
  });
});

describe('qr-sandbox:app-version', () => {
  it("answers the app's version", async () => {
    const { invoke } = setup();
    assert.equal(await invoke('qr-sandbox:app-version'), '0.1.0');
  });
});
