import { importKindOf, type ImportKindName } from '../../api/import-api.ts';

/** A file of a kind in words, from the server (GET /api/meta). */
const fileOf = (kind: ImportKindName) => importKindOf(kind).file_noun;

/**
 * Shown when the preview says the file's columns are another kind's (`looks_like_kind`): switch
 * in one click, or say on purpose that the file is to be imported as the chosen kind. Until one
 * of the two, the import cannot be started (a wrong-kind file could overwrite existing records).
 */
export function KindMismatchNotice({
  kind,
  looksLike,
  accepted,
  onSwitch,
  onAccept,
}: {
  kind: ImportKindName;
  looksLike: ImportKindName;
  accepted: boolean;
  onSwitch(): void;
  onAccept(accepted: boolean): void;
}) {
  const chosen = importKindOf(kind).in_a_sentence;
  const other = importKindOf(looksLike).in_a_sentence;
  return (
    <div className="notice notice-warning kind-mismatch" role="alert" aria-label="Wrong kind of file?">
      <div className="notice-body">
        <p>
          <strong>This looks like {fileOf(looksLike)} — switch?</strong> Its columns are those of {other}, but it is about to be imported as{' '}
          {chosen}, which could overwrite existing records with the wrong values. Nothing can be imported until you choose.
        </p>
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={onSwitch}>
            Switch to {importKindOf(looksLike).label}
          </button>
          <label className="checkbox">
            <input type="checkbox" checked={accepted} onChange={(e) => onAccept(e.target.checked)} />
            It is {fileOf(kind)}: import it as {chosen}
          </label>
        </div>
      </div>
    </div>
  );
}
