/**
 * Runs preload/preload.cts (or its compiled .cjs) the way Electron runs a preload script in a sandboxed renderer: one
 * script, wrapped in a function that receives `require` (which knows only 'electron' here),
 * `process`, `exports` and `module`, with a window to listen on. Types are stripped by Node.
 */
import fs from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import vm from 'node:vm';

export interface FakeIpcRenderer {
  invocations: { channel: string; args: unknown[] }[];
  answers: Map<string, unknown>;
  listeners: Map<string, ((event: unknown, ...args: unknown[]) => void)[]>;
  /** main sends `channel` to this window (webContents.send). */
  receive(channel: string, ...args: unknown[]): void;
}

export interface PageEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
  dataTransfer: { files: File[] } | null;
}

export interface LoadedPreload {
  exposed: Map<string, unknown>;
  required: string[];
  ipc: FakeIpcRenderer;
  /** Dispatches a DOM event to the window's listeners, as the page's own listeners left it. */
  dispatch(type: 'dragover' | 'drop', event: PageEvent): void;
}

export function pageEvent(files: File[], defaultPrevented = false): PageEvent {
  const event: PageEvent = {
    defaultPrevented,
    preventDefault: () => {
      event.defaultPrevented = true;
    },
    dataTransfer: { files },
  };
  return event;
}

export function loadSandboxedPreload(file: string): LoadedPreload {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const windowListeners = new Map<string, ((event: PageEvent) => void)[]>();
  const ipc: FakeIpcRenderer = {
    invocations: [],
    answers: new Map(),
    listeners: new Map(),
    receive(channel, ...args) {
      for (const listener of this.listeners.get(channel) ?? []) listener({ sender: 'main' }, ...args);
    },
  };
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api),
    },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => {
        ipc.invocations.push({ channel, args });
        return ipc.answers.get(channel);
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        ipc.listeners.set(channel, [...(ipc.listeners.get(channel) ?? []), listener]);
      },
    },
  };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name} (a sandboxed preload can require only a few built-in modules)`);
  };
  const window = {
    addEventListener: (type: string, listener: (event: PageEvent) => void) => {
      windowListeners.set(type, [...(windowListeners.get(type) ?? []), listener]);
    },
  };
  const text = fs.readFileSync(file, 'utf8');
  const source = file.endsWith('.cts') ? stripTypeScriptTypes(text, { mode: 'strip' }) : text;
  const context = vm.createContext({ window, Uint8Array, Set, Array, Promise, TypeError });
  const wrapped = vm.runInContext(
    `(function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {${source}\n})`,
    context,
    {
      filename: file,
    },
  ) as (...args: unknown[]) => void;
  const exports = {};
  wrapped(sandboxRequire, { platform: process.platform }, undefined, window, setImmediate, clearImmediate, exports, { exports });
  return {
    exposed,
    required,
    ipc,
    dispatch(type, event) {
      for (const listener of windowListeners.get(type) ?? []) listener(event);
    },
  };
}
