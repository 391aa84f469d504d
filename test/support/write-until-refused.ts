import assert from 'node:assert/strict';

/**
 * Writes (write(0), write(1), …, at most `attempts` times) until an answer is a refusal, as a
 * filling disk makes it; asserts one came. Returns how many writes went through before it, and it.
 */
export async function writeUntilRefused(
  write: (i: number) => Promise<Response>,
  { attempts, isRefusal, what }: { attempts: number; isRefusal: (res: Response) => boolean; what: string },
): Promise<{ accepted: number; refused: Response }> {
  let accepted = 0;
  let refused: Response | undefined;
  for (let i = 0; i < attempts && !refused; i++) {
    const res = await write(i);
    if (isRefusal(res)) refused = res;
    else {
      accepted++;
      await res.body?.cancel();
    }
  }
  assert.ok(refused, `${what} was refused`);
  return { accepted, refused };
}
