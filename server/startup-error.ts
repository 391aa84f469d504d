/** A problem the user can fix (bad data dir, port in use, ...): printed as-is, exit status 1, no stack. */
export class StartupError extends Error {
  override name = 'StartupError';
}
