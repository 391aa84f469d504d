import assert from 'node:assert/strict';

/** Polls until `done` holds (no timing asserted); fails naming `what` if it never does within `limitMs` (20 s). */
export async function eventually(done: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > limitMs) assert.fail(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
