/**
 * One text that changes whenever the database may have: `PRAGMA data_version` moves when another
 * connection (an import worker, the CLI) commits, `total_changes()` when this connection writes.
 * Caches of read answers keep an answer only while this text is the same.
 */
export const DATABASE_VERSION_SQL = "select (select data_version from pragma_data_version) || ':' || total_changes() as version";
