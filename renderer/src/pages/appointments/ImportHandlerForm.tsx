import { useId } from 'react';
import { useAppMeta } from '../../api/meta.ts';
import type { AppointmentField, CreateImportHandlerBody, ImportHandler, UpdateImportHandlerBody } from '../../api/appointment-types.ts';
import { ApiFailure } from '../../api/client.ts';
import { fieldLabel, fieldProblem } from '../../api/describe-error.ts';
import type { FormProps } from '../../components/CrudListPage.tsx';
import { TextField } from '../../components/FormField.tsx';
import { ResourceForm, useResourceForm } from '../../components/ResourceForm.tsx';

interface MappingRow {
  key: number;
  title: string;
  field: AppointmentField | '';
}

interface Values {
  name: string;
  slug: string;
  rows: MappingRow[];
}

let nextKey = 1;
const row = (title = '', field: AppointmentField | '' = ''): MappingRow => ({ key: nextKey++, title, field });

function initialValues(handler: ImportHandler | null): Values {
  const rows = handler ? Object.entries(handler.mapping).map(([title, field]) => row(title, field as AppointmentField)) : [row()];
  return { name: handler?.name ?? '', slug: handler?.slug ?? '', rows };
}

/** The filled rows as the API's mapping; a half-filled row is sent too, so the server names what is missing. */
function mappingOf(rows: MappingRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.title.trim() !== '' || r.field !== '').map((r) => [r.title.trim(), r.field]));
}

function createBody(values: Values, organizationUuid: string): CreateImportHandlerBody {
  const slug = values.slug.trim();
  return {
    organization_uuid: organizationUuid,
    name: values.name.trim(),
    ...(slug ? { slug } : {}),
    mapping: mappingOf(values.rows) as CreateImportHandlerBody['mapping'],
  };
}

function updateBody(values: Values, handler: ImportHandler): UpdateImportHandlerBody {
  const body: UpdateImportHandlerBody = {};
  if (values.name.trim() !== handler.name) body.name = values.name.trim();
  if (values.slug.trim() !== handler.slug) body.slug = values.slug.trim();
  const mapping = mappingOf(values.rows);
  if (JSON.stringify(mapping) !== JSON.stringify(handler.mapping)) body.mapping = mapping as UpdateImportHandlerBody['mapping'];
  return body;
}

/** Create (handler null) or edit an import handler: a name, a slug and column title → spec field rows. */
export function ImportHandlerForm({ handler, ...props }: { handler: ImportHandler | null } & FormProps<ImportHandler>) {
  const id = useId();
  const appointmentFields = useAppMeta()?.appointment_fields ?? [];
  const form = useResourceForm({ path: '/api/import-handlers', item: handler, initialValues, createBody, updateBody, ...props });
  const { values, setValues, save } = form;
  const setRow = (key: number, change: Partial<MappingRow>) =>
    setValues((v) => ({ ...v, rows: v.rows.map((r) => (r.key === key ? { ...r, ...change } : r)) }));
  const problem = (field: string) => fieldProblem(save.error, field);
  const mappingProblems = save.error ? mappingMessages(save.error) : [];

  const textField = (key: 'name' | 'slug', label: string, hint: string) => (
    <TextField
      id={`${id}-${key}`}
      label={label}
      hint={hint}
      problem={problem(key)}
      value={values[key]}
      onChange={(value) => form.setValue(key, value)}
    />
  );

  return (
    <ResourceForm
      kind="import handler"
      item={handler}
      form={form}
      fieldsShown={['name', 'slug', ...describedMappingFields(save.error)]}
      onCancel={props.onCancel}
    >
      <div className="qr-form-grid">
        {textField('name', 'Name', 'What the layout is, e.g. Acme job export.')}
        {textField(
          'slug',
          'Slug (org_identifier)',
          handler ? 'Imports select the handler with it.' : 'Imports select the handler with it; empty: made from the name.',
        )}
      </div>
      <fieldset className="fieldset">
        <legend className="field-label">Columns</legend>
        <p className="field-hint">
          Each row: a column title as it is in your file, and the appointment field it holds. Columns already titled with a field name (e.g.
          tag_name) need no row.
        </p>
        <div className="mapping-rows">
          {values.rows.map((r, index) => (
            <div key={r.key} className="mapping-row">
              <input
                aria-label={`Column title in your file, row ${index + 1}`}
                value={r.title}
                placeholder="e.g. Job Ref"
                onChange={(e) => setRow(r.key, { title: e.target.value })}
              />
              <span className="mapping-arrow" aria-hidden="true">
                →
              </span>
              <select
                aria-label={`Appointment field, row ${index + 1}`}
                value={r.field}
                onChange={(e) => setRow(r.key, { field: e.target.value as AppointmentField | '' })}
              >
                <option value="">Choose a field…</option>
                {appointmentFields.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button button-small button-quiet"
                aria-label={`Remove row ${index + 1}`}
                disabled={values.rows.length === 1}
                onClick={() => setValues((v) => ({ ...v, rows: v.rows.filter((x) => x.key !== r.key) }))}
              >
                Remove
              </button>
            </div>
          ))}
        </div>
        {mappingProblems.length > 0 && (
          <ul className="field-problem" aria-label="Problems with the columns">
            {mappingProblems.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        <button type="button" className="button button-small" onClick={() => setValues((v) => ({ ...v, rows: [...v.rows, row()] }))}>
          Add a column
        </button>
      </fieldset>
    </ResourceForm>
  );
}

/** The server's problems with the mapping (body.mapping or body.mapping.<title>), shown under the column rows. */
function mappingMessages(error: unknown): string[] {
  if (!(error instanceof ApiFailure)) return [];
  return error.details
    .filter((d) => d.path === 'body.mapping' || d.path.startsWith('body.mapping.'))
    .map((d) => (d.path === 'body.mapping' ? d.message : `“${d.path.slice('body.mapping.'.length)}”: ${d.message}`));
}

function describedMappingFields(error: unknown): string[] {
  if (!(error instanceof ApiFailure)) return [];
  return error.details.filter((d) => d.path === 'body.mapping' || d.path.startsWith('body.mapping.')).map((d) => fieldLabel(d.path));
}
