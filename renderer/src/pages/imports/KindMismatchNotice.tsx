import { importKindOf, type ImportKindName } from '../../api/import-api.ts';

/** A file of each kind, and the kind in a sentence, in words. */
const FILE_OF: Record<ImportKindName, string> = {
  qrcodes: 'a QR code addresses file',
  appointments: 'an appointments file',
};
const IN_A_SENTENCE: Record<ImportKindName, string> = {
  qrcodes: 'QR code addresses',
  appointments: 'appointments',
};

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
  const chosen = IN_A_SENTENCE[kind];
  const other = IN_A_SENTENCE[looksLike];
  return (
    <div className="notice notice-warning kind-mismatch" role="alert" aria-label="Wrong kind of file?">
      <div className="notice-body">
        <p>
          <strong>This looks like {FILE_OF[looksLike]} — switch?</strong> Its columns are those of {other}, but it is about to be imported
          as {chosen}, which could overwrite existing records with the wrong values. Nothing can be imported until you choose.
        </p>
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={onSwitch}>
            Switch to {importKindOf(looksLike).label}
          </button>
          <label className="checkbox">
            <input type="checkbox" checked={accepted} onChange={(e) => onAccept(e.target.checked)} />
            It is {FILE_OF[kind]}: import it as {chosen}
          </label>
        </div>
      </div>
    </div>
  );
}
