/** The path an inbox receives at is this prefix and its uuid. */
export const INBOX_PATH_PREFIX = '/inbox/';
