/** The embedded server as the desktop app holds it: where it listens, the first organization's key, how to stop it. */
export interface DesktopServer {
  url: string;
  credentials: { organization_uuid: string; api_key: string; api_secret: string } | null;
  close(): Promise<void>;
}
