import type { ServerConfig } from '../context.ts';

/** Messages kept per inbox; past it the oldest are deleted (serve --inbox-max-messages). */
export const DEFAULT_INBOX_MAX_MESSAGES = 1000;
/** Largest request body an inbox stores (serve --inbox-max-body-kb). */
export const DEFAULT_INBOX_MAX_BODY_BYTES = 1024 * 1024;

export interface InboxLimits {
  maxMessages: number;
  maxBodyBytes: number;
}

export function inboxLimits(config: ServerConfig): InboxLimits {
  return {
    maxMessages: config.inboxLimits?.maxMessages ?? DEFAULT_INBOX_MAX_MESSAGES,
    maxBodyBytes: config.inboxLimits?.maxBodyBytes ?? DEFAULT_INBOX_MAX_BODY_BYTES,
  };
}

/** "1 MB", "512 KB", "300 bytes": how a limit reads in an answer. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
