import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  importFile(): void;
  openDataFolder(): void;
  openApiDocs(): void;
  showAbout(): void;
  resetDemoData(): void;
  toggleDemoEvents(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  dev: boolean;
  appName: string;
  /** State shown by the Demo menu: a reset under way, simulated events on. */
  demo?: { busy: boolean; eventsRunning: boolean };
}

export const RESET_DEMO_DATA_LABEL = 'Reset Demo Data…';
export const SIMULATED_EVENTS_LABEL = 'Simulated Events (every 5 s)';

/** The native menu bar: File (import, data folder), Edit, View, Demo (reset, simulated events), Help (API docs, about). */
export function buildMenuTemplate(actions: MenuActions, options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: `About ${options.appName}`, click: () => actions.showAbout() };
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: options.appName,
      submenu: [
        about,
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: '&File',
      submenu: [
        { label: 'Import a File…', accelerator: 'CmdOrCtrl+O', click: () => actions.importFile() },
        { label: 'Open Data Folder', click: () => actions.openDataFolder() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        ...(options.dev ? ([{ role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Demo',
      submenu: [
        { label: RESET_DEMO_DATA_LABEL, enabled: !options.demo?.busy, click: () => actions.resetDemoData() },
        {
          label: SIMULATED_EVENTS_LABEL,
          type: 'checkbox',
          checked: options.demo?.eventsRunning ?? false,
          click: () => actions.toggleDemoEvents(),
        },
      ],
    },
    {
      label: '&Help',
      submenu: [{ label: 'API Reference', click: () => actions.openApiDocs() }, ...(mac ? [] : [{ type: 'separator' } as const, about])],
    },
  );
  return template;
}
