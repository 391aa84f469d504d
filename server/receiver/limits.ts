import type { ServerConfig } from '../server-config.ts';

/** Messages kept per inbox; past it the oldest are deleted (serve --inbox-max-messages). */
export const DEFAULT_INBOX_MAX_MESSAGES = 1000;
/** Largest request body an inbox stores (serve --inbox-max-body-kb). */
export const DEFAULT_INBOX_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Request bytes each inbox takes per minute (serve --inbox-max-mb-per-minute), the whole minute's
 * worth at once if it comes at once: some 3,000 deliveries of 5 KB; 16 bodies of 1 MB.
 */
export const DEFAULT_INBOX_BYTES_PER_MINUTE = 16 * 1024 * 1024;
/** Forwards (forward_to) in flight at once, over all inboxes (serve --inbox-forwards). */
export const DEFAULT_INBOX_FORWARDS = 8;
/** Forwards waiting for one of those; past it a message is not forwarded and says so (serve --inbox-forward-queue). */
export const DEFAULT_INBOX_FORWARD_QUEUE = 200;

/**
 * Waits for messages (the long-poll) one API key, and one organization, may hold open at once
 * (serve --inbox-waits-per-key, --inbox-waits-per-organization); past it 429 with Retry-After.
 */
export const DEFAULT_INBOX_WAITS_PER_KEY = 16;
export const DEFAULT_INBOX_WAITS_PER_ORGANIZATION = 64;

export interface InboxLimits {
  maxMessages: number;
  maxBodyBytes: number;
  bytesPerMinute: number;
  forwards: number;
  forwardQueue: number;
  waitsPerKey: number;
  waitsPerOrganization: number;
}

export function inboxLimits(config: ServerConfig): InboxLimits {
  return {
    maxMessages: config.inboxLimits?.maxMessages ?? DEFAULT_INBOX_MAX_MESSAGES,
    maxBodyBytes: config.inboxLimits?.maxBodyBytes ?? DEFAULT_INBOX_MAX_BODY_BYTES,
    bytesPerMinute: config.inboxLimits?.bytesPerMinute ?? DEFAULT_INBOX_BYTES_PER_MINUTE,
    forwards: config.inboxLimits?.forwards ?? DEFAULT_INBOX_FORWARDS,
    forwardQueue: config.inboxLimits?.forwardQueue ?? DEFAULT_INBOX_FORWARD_QUEUE,
    waitsPerKey: config.inboxLimits?.waitsPerKey ?? DEFAULT_INBOX_WAITS_PER_KEY,
    waitsPerOrganization: config.inboxLimits?.waitsPerOrganization ?? DEFAULT_INBOX_WAITS_PER_ORGANIZATION,
  };
}

/** "1 MB", "512 KB", "300 bytes": how a limit reads in an answer. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
