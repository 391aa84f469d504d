import type { SecretCodec } from '../server/remote/profiles.ts';
import type { SafeStorageLike } from './electron-api.ts';

/** `secret_protection` of profile secrets the desktop app encrypted. */
export const SAFE_STORAGE_PROTECTION = 'electron-safe-storage';

export type SecretCodecChoice = { codec: SecretCodec; reason?: undefined } | { codec?: undefined; reason: string };

/**
 * The codec the desktop app gives the server for connection profile secrets: Electron's safeStorage
 * (macOS Keychain, Windows DPAPI, the Linux desktop's secret store), used through its asynchronous
 * API (the synchronous one is deprecated). Without a real keychain (encryption unavailable, or Linux's
 * "basic_text" fallback, which encrypts with a fixed password) there is none, and the reason says why:
 * secrets then stay in clear text in the 0600 file, as headless.
 */
export async function safeStorageCodec(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Promise<SecretCodecChoice> {
  let available: boolean;
  try {
    available = await safeStorage.isAsyncEncryptionAvailable();
  } catch (error) {
    return { reason: `the system keychain could not be opened (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!available) return { reason: 'encryption with the system keychain is not available on this computer' };
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
    return { reason: 'this Linux desktop has no secret store (GNOME Keyring or KWallet), so Electron would encrypt with a fixed password' };
  }
  return {
    codec: {
      protection: SAFE_STORAGE_PROTECTION,
      description: "the system keychain (Electron's safeStorage)",
      encrypt: async (secret) => (await safeStorage.encryptStringAsync(secret)).toString('base64'),
      decrypt: async (encrypted) => (await safeStorage.decryptStringAsync(Buffer.from(encrypted, 'base64'))).result,
    },
  };
}
