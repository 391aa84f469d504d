/**
 * The desktop shell's preload exposes `window.qrSandbox` (types in preload/api.ts). In a plain
 * browser it is undefined and the GUI signs in from the #key= link or the sign-in form instead.
 * The desktop shell loads the GUI from the server's own http://127.0.0.1:P/ address, so API calls
 * stay same-origin in both cases.
 */
import type { DesktopConnection, QrSandboxDesktopApi } from '../../../preload/api.ts';

export type { DesktopConnection };

declare global {
  interface Window {
    qrSandbox?: QrSandboxDesktopApi;
  }
}

/** The desktop bridge when the GUI runs in the desktop app. */
export function desktopBridge(): QrSandboxDesktopApi | null {
  return window.qrSandbox ?? null;
}

export async function desktopConnection(): Promise<DesktopConnection | null> {
  const bridge = desktopBridge();
  if (!bridge) return null;
  try {
    return await bridge.getConnection();
  } catch {
    return null;
  }
}
