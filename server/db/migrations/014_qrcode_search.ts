import { sql, type Kysely } from 'kysely';

/**
 * The QR code search's index: every trigram of name, location, label and external_reference_id
 * (FTS5, trigram tokenizer), keyed by the QR code's rowid and read back from qrcodes itself
 * (external content). detail=none keeps no positions: half the size and half the build time of
 * the full index, and the search checks each candidate with LIKE anyway (server/qrcodes/search.ts).
 * columnsize=0: nothing ranks the matches, so no per-row sizes are stored.
 * Inserts are indexed by their writers (server/qrcodes/search-index.ts): a trigger per inserted
 * row made a million-row import several times slower. Updates of the searched fields and deletes
 * are rare and go through the triggers. Existing QR codes are indexed here, in one pass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table qrcode_search using fts5(name, location, label, external_reference_id, content='qrcodes', content_rowid='rowid', tokenize='trigram', detail=none, columnsize=0)`.execute(
    db,
  );
  await sql`create trigger qrcode_search_delete after delete on qrcodes begin
    insert into qrcode_search (qrcode_search, rowid, name, location, label, external_reference_id)
      values ('delete', old.rowid, old.name, old.location, old.label, old.external_reference_id);
  end`.execute(db);
  await sql`create trigger qrcode_search_update after update of name, location, label, external_reference_id on qrcodes
    when old.name is not new.name or old.location is not new.location or old.label is not new.label
      or old.external_reference_id is not new.external_reference_id
  begin
    insert into qrcode_search (qrcode_search, rowid, name, location, label, external_reference_id)
      values ('delete', old.rowid, old.name, old.location, old.label, old.external_reference_id);
    insert into qrcode_search (rowid, name, location, label, external_reference_id)
      values (new.rowid, new.name, new.location, new.label, new.external_reference_id);
  end`.execute(db);
  await sql`insert into qrcode_search (qrcode_search) values ('rebuild')`.execute(db);
}
