import type { AppContext } from '../context.ts';

export interface PerServer<T> {
  /** The server's T, made on first use and kept as long as that server's context lives. */
  (ctx: AppContext): T;
  /** The server's T if it was made, without making it (for stopping). */
  existing(ctx: AppContext): T | undefined;
}

export function perServer<T>(make: (ctx: AppContext) => T): PerServer<T> {
  const made = new WeakMap<AppContext, T>();
  const get = (ctx: AppContext): T => {
    let found = made.get(ctx);
    if (found === undefined) {
      found = make(ctx);
      made.set(ctx, found);
    }
    return found;
  };
  return Object.assign(get, { existing: (ctx: AppContext) => made.get(ctx) });
}
