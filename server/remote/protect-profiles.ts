import type { Logger } from 'pino';
import { protectProfiles, type SecretCodec } from './profiles.ts';

/** At the desktop app's start: profiles saved in clear text (by the command line) get their secret encrypted. */
export async function encryptSavedProfiles(dataDir: string, codec: SecretCodec, logger: Logger): Promise<void> {
  try {
    const names = await protectProfiles(dataDir, codec);
    if (names.length > 0) logger.info({ profiles: names, protection: codec.protection }, 'connection profile secrets encrypted');
  } catch (error) {
    logger.warn({ err: error }, 'connection profiles could not be encrypted; they stay as they were');
  }
}
