/**
 * One draft's operations one after another (this process is the only one that writes drafts).
 * A big draft is written in chunks, with the event loop free between them; its queue keeps every
 * other request about that draft (a read, an edit, an undo) waiting until the whole change is
 * written, so none sees a change half done. Requests about anything else answer meanwhile.
 */
const tails = new Map<string, Promise<unknown>>();

export function inDraftQueue<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const result = before.then(work, work);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}

/** Rows written (or read and changed) per transaction when a draft's work is chunked. */
export const CHUNK_ROWS = 1000;

/** Lets the event loop answer other requests between two chunks. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
