/**
 * A problem with the imported data that the user must fix (unreadable file, missing columns,
 * invalid JSON). Before a task starts it is a 400; inside a task it becomes FAILED with this message.
 */
export class ImportInputError extends Error {
  override name = 'ImportInputError';
}

/** Sync mode refused: the file has more rows than the sync cap. */
export class TooManyRowsError extends ImportInputError {
  override name = 'TooManyRowsError';
}

/** Thrown after a batch when someone asked to cancel the import: the run ends FAILED, keeping what it wrote. */
export class CancelRequested extends Error {
  override name = 'CancelRequested';
  readonly by: string;

  constructor(by: string) {
    super('cancel requested');
    this.by = by;
  }
}

/** The worker was asked to stop (shutdown) between batches; the task resumes on the next start. */
export class StopRequested extends Error {
  override name = 'StopRequested';
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
