import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * For synchronous reads on the server's connection: resolves once no transaction is open on it.
 * A kysely transaction holds the connection across awaits; a read that ran in between would see
 * its uncommitted rows. Waiting for a trivial kysely query queues behind it, as every kysely query does.
 */
export async function outsideTransaction(db: Db): Promise<void> {
  while (db.sqlite.inTransaction) await sql`select 1`.execute(db.kysely);
}
