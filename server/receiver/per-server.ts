export interface PerServer<T, C extends object = object> {
  /** The server's T, made on first use and kept as long as that server's context lives. */
  (ctx: C): T;
  /** The server's T if it was made, without making it (for stopping). */
  existing(ctx: C): T | undefined;
}

/** One T per server, keyed by its context object (a part that takes a smaller interface of it passes the same object). */
export function perServer<T, C extends object = object>(make: (ctx: C) => T): PerServer<T, C> {
  const made = new WeakMap<C, T>();
  const get = (ctx: C): T => {
    let found = made.get(ctx);
    if (found === undefined) {
      found = make(ctx);
      made.set(ctx, found);
    }
    return found;
  };
  return Object.assign(get, { existing: (ctx: C) => made.get(ctx) });
}
