import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * For synchronous reads on the server's connection: resolves once no transaction is open on it.
 * A kysely transaction holds the connection across awaits; a read that ran in between would see
 * its uncommitted rows. Waiting for a trivial kysely query queues behind it, as every kysely query does.
 * Nothing to wait for (the usual case, on every request): no promise at all.
 */
export function outsideTransaction(db: Db): Promise<void> | undefined {
  return db.sqlite.inTransaction ? untilOutside(db) : undefined;
}

async function untilOutside(db: Db): Promise<void> {
  while (db.sqlite.inTransaction) await sql`select 1`.execute(db.kysely);
}
