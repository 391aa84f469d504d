/** What CountThread and its thread (count-thread.ts) send each other. */
export interface CountThreadData {
  /** The database file. */
  file: string;
}

export interface CountRequest {
  id: number;
  /** A statement answering one row of one number. */
  sql: string;
  parameters: readonly unknown[];
}

export type CountAnswer = { id: number; count: number } | { id: number; error: { message: string; code?: string } };
