import { IMPORT_KINDS, type ImportKindName } from './import-api.ts';

/** A file of each kind, in words. */
const FILE_OF: Record<ImportKindName, string> = {
  qrcodes: 'a QR code addresses file',
  appointments: 'an appointments file',
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
  const chosen = IMPORT_KINDS[kind].label;
  const other = IMPORT_KINDS[looksLike].label;
  return (
    <div className="notice notice-warning kind-mismatch" role="alert" aria-label="Wrong kind of file?">
      <div className="notice-body">
        <p>
          <strong>This looks like {FILE_OF[looksLike]} — switch?</strong> Its columns are those of {other.toLowerCase()}, and it is about to
          be imported as {chosen.toLowerCase()}, which could overwrite existing records with the wrong values.
        </p>
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={onSwitch}>
            Switch to {other}
          </button>
          <label className="checkbox">
            <input type="checkbox" checked={accepted} onChange={(e) => onAccept(e.target.checked)} />
            It is {FILE_OF[kind]}: import it as {chosen.toLowerCase()}
          </label>
        </div>
      </div>
    </div>
  );
}
