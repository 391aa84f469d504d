import type { ImportPreview } from '../../api/types.ts';
import { useState } from 'react';
import { writeCall } from '../../api/write-call.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ActionButton } from '../../components/FormActions.tsx';
import { Table } from '../../components/Table.tsx';
import { cellText } from '../../api/task-format.ts';
import type { ImportKindName } from '../../api/import-api.ts';
import { importKindOf } from '../../api/import-form.ts';
import { type LayoutChoice, openQuestions, previewMapping } from './file-layout.ts';

const IGNORE = '';
const UNANSWERED = '?';
const SAMPLES = 3;

type Match = NonNullable<ImportPreview['columns']['matches']>[number];

const HOW: Record<Match['source'], string> = {
  mapping: 'your choice',
  saved: 'your saved columns',
  name: 'exact name',
  synonym: 'a usual name for it',
  similar: 'similar spelling (a guess)',
  none: 'no column near',
};

function confidenceText(match: Match): string {
  if (match.source === 'none') return HOW.none;
  return `${Math.round(match.confidence * 100)} % · ${HOW[match.source]}`;
}

/** The first few different values under a header in the previewed rows, to show what the column holds. */
function sampleValues(preview: ImportPreview, header: string): string[] {
  const samples: string[] = [];
  for (const row of preview.rows) {
    const text = cellText(row.values[header]).trim();
    if (text !== '' && !samples.includes(text)) samples.push(text);
    if (samples.length === SAMPLES) break;
  }
  return samples;
}

/**
 * The file's headers and the column each fills, as proposed by the preview (exact names, synonyms,
 * similar spellings, or a saved mapping): each changeable to another column or "ignore this column",
 * with three of its values. A guess (a similar spelling, `needs_confirmation`) is a question the
 * user answers before importing, whatever its confidence.
 * Confirmed columns can be saved under a name (an import handler), proposed again next time.
 */
export function ColumnMappingEditor({
  kind,
  organizationUuid,
  preview,
  choice,
  canSave,
  onConfirm,
}: {
  kind: ImportKindName;
  organizationUuid: string;
  preview: ImportPreview;
  choice: LayoutChoice;
  canSave: boolean;
  onConfirm(mapping: Record<string, string | null>): void;
}) {
  const matches = (preview.columns.matches ?? []).filter((m) => m.header.trim() !== '');
  const questions = new Set(openQuestions(preview, choice).map((q) => q.header.trim()));
  const labels = importKindOf(kind).column_labels;
  const labelOf = (column: string) => labels[column] ?? column;
  const initial = () => {
    const draft: Record<string, string> = {};
    for (const [header, column] of Object.entries(previewMapping(preview))) {
      draft[header] = questions.has(header) ? UNANSWERED : (column ?? IGNORE);
    }
    return draft;
  };
  const [draft, setDraft] = useState<Record<string, string>>(initial);
  const [name, setName] = useState('');
  const [savedAs, setSavedAs] = useState<string | null>(null);
  const unanswered = Object.values(draft).filter((v) => v === UNANSWERED).length;
  // Folded when every column was found by its exact name (or by none: those are ignored, and the preview says so).
  const allByName = matches.every((m) => m.source === 'name' || m.source === 'none');
  const changed = JSON.stringify(draft) !== JSON.stringify(initial());
  const confirmed = choice.mapping !== undefined && !changed && unanswered === 0;
  const taken = new Map<string, number>();
  for (const column of Object.values(draft))
    if (column !== IGNORE && column !== UNANSWERED) taken.set(column, (taken.get(column) ?? 0) + 1);
  const doubled = [...taken].filter(([, count]) => count > 1).map(([column]) => labelOf(column));
  const asMapping = () => Object.fromEntries(Object.entries(draft).map(([header, column]) => [header, column === IGNORE ? null : column]));
  const required = new Set(preview.required_columns);

  const save = useApiAction(async () => {
    const mapping = Object.fromEntries(Object.entries(asMapping()).filter((entry): entry is [string, string] => entry[1] !== null));
    const call = writeCall('post', '/api/import-handlers', {
      body: { organization_uuid: organizationUuid, name: name.trim(), kind, mapping },
    });
    const saved = await call.send();
    setSavedAs(saved.name);
    return saved;
  });

  return (
    <div className="column-mapping">
      <h3>Columns of the file</h3>
      {preview.saved_mapping && (
        <p className="notice notice-info" role="status">
          Using your saved columns <strong>{preview.saved_mapping.name}</strong>: this file has every column title they name.
        </p>
      )}
      {unanswered > 0 && (
        <p className="field-problem" role="alert">
          {unanswered === 1 ? 'One column was' : `${unanswered} columns were`} matched by a similar spelling, a guess: say whether{' '}
          {unanswered === 1 ? 'it holds' : 'they hold'} what is proposed (or choose another column, or ignore{' '}
          {unanswered === 1 ? 'it' : 'them'}), then use these columns. Nothing is imported before that.
        </p>
      )}
      <details className="column-mapping-details" open={!allByName || unanswered > 0 || changed}>
        <summary>
          {allByName
            ? `Each of the ${matches.length} columns is matched by its exact name: open to change one or ignore it`
            : 'What each column of the file fills'}
        </summary>
        <Table
          label="Columns of the file and what they fill"
          headings={['Column in the file', 'Fills', 'How it was matched']}
          className="table table-compact"
        >
          {matches.map((match) => {
            const header = match.header.trim();
            const value = draft[header] ?? IGNORE;
            const question = value === UNANSWERED;
            const proposed = match.proposed;
            const samples = sampleValues(preview, match.header);
            return (
              <tr key={header} className={question ? 'row-problem' : undefined}>
                <th scope="row">
                  <code>{header}</code>
                  <span className="column-samples" title={`Values of ${header} in the first rows`}>
                    {samples.length > 0 ? samples.join(' · ') : 'no values in the first rows'}
                  </span>
                </th>
                <td>
                  <select
                    aria-label={`Column for ${header}`}
                    value={value}
                    onChange={(e) => setDraft((d) => ({ ...d, [header]: e.target.value }))}
                  >
                    {question && proposed && <option value={UNANSWERED}>Choose… (is it {labelOf(proposed)}?)</option>}
                    <option value={IGNORE}>ignore this column</option>
                    {preview.expected_columns.map((column) => (
                      <option key={column} value={column}>
                        {labelOf(column)} ({column}){required.has(column) ? ' · required' : ''}
                        {column === proposed && question ? ' · proposed' : ''}
                      </option>
                    ))}
                  </select>
                  {question && proposed && (
                    <button type="button" className="button button-small" onClick={() => setDraft((d) => ({ ...d, [header]: proposed }))}>
                      Yes, it is {labelOf(proposed)}
                    </button>
                  )}
                  {!question && value !== IGNORE && required.has(value) && <span className="required-mark"> required</span>}
                </td>
                <td className={question ? 'field-problem' : 'muted'}>
                  {question && proposed ? `Guessed: ${confidenceText(match)} to ${labelOf(proposed)}` : confidenceText(match)}
                </td>
              </tr>
            );
          })}
        </Table>
        {doubled.length > 0 && <p className="field-problem">Two columns fill {doubled.join(', ')}: keep one of them.</p>}
        <div className="form-actions">
          <button
            type="button"
            className="button"
            disabled={unanswered > 0 || doubled.length > 0 || confirmed}
            onClick={() => onConfirm(asMapping())}
          >
            {confirmed ? 'Columns confirmed' : 'Use these columns'}
          </button>
        </div>
        {confirmed && canSave && (
          <div className="save-mapping">
            <label className="inline-field">
              <span>Save these columns as</span>
              <input type="text" value={name} placeholder="e.g. Acme site register" onChange={(e) => setName(e.target.value)} />
            </label>
            <ActionButton action={save} className="button button-small" disabled={name.trim() === ''}>
              Save for next time
            </ActionButton>
            {savedAs && (
              <span role="status" className="ok-mark">
                Saved as {savedAs}: a file with the same column titles gets these columns next time.
              </span>
            )}
            <ErrorNotice error={save.error} onDismiss={save.clearError} />
          </div>
        )}
      </details>
    </div>
  );
}
