/**
 * What the desktop shell's preload script offers the GUI (contextBridge.exposeInMainWorld
 * ('qrSandbox', ...)). In a plain browser `window.qrSandbox` is undefined and the GUI signs in
 * from the #key= link or the sign-in form instead. The desktop shell loads the GUI from the
 * server's own http://127.0.0.1:P/ address, so API calls stay same-origin in both cases.
 */
export interface DesktopConnection {
  apiKey: string;
  apiSecret: string;
}

export interface DesktopBridge {
  /** The credential the desktop app started its server with, or null when it has none. */
  getConnection(): Promise<DesktopConnection | null>;
}

declare global {
  interface Window {
    qrSandbox?: DesktopBridge;
  }
}

export async function desktopConnection(): Promise<DesktopConnection | null> {
  const bridge = window.qrSandbox;
  if (!bridge) return null;
  try {
    return await bridge.getConnection();
  } catch {
    return null;
  }
}
