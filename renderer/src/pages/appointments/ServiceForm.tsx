import { type FormEvent, useId, useState } from 'react';
import type { CreateServiceBody, Service, UpdateServiceBody } from '../../../../server/services/schemas.ts';
import { type ApiRequest, call } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/FormField.tsx';

interface Values {
  name: string;
  code: string;
  categories: string;
}

/** "Maintenance, Plumbing" → [{name: "Maintenance"}, {name: "Plumbing"}]. */
function categoryList(text: string): { name: string }[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ name }));
}

function initialValues(service: Service | null): Values {
  return { name: service?.name ?? '', code: service?.code ?? '', categories: service?.categories.map((c) => c.name).join(', ') ?? '' };
}

function createBody(values: Values, organizationUuid: string): CreateServiceBody {
  const code = values.code.trim();
  return {
    organization_uuid: organizationUuid,
    name: values.name.trim(),
    ...(code ? { code } : {}),
    categories: categoryList(values.categories),
  };
}

/** Only what changed; a cleared code becomes null (removed). */
function updateBody(values: Values, service: Service): UpdateServiceBody {
  const before = initialValues(service);
  const body: UpdateServiceBody = {};
  if (values.name.trim() !== before.name) body.name = values.name.trim();
  if (values.code.trim() !== before.code) body.code = values.code.trim() || null;
  const categories = categoryList(values.categories);
  if (categories.map((c) => c.name).join(', ') !== before.categories) body.categories = categories;
  return body;
}

/** Create (service null) or edit a catalog service; the server's problems show under their fields. */
export function ServiceForm({
  service,
  organizationUuid,
  onSaved,
  onCancel,
}: {
  service: Service | null;
  organizationUuid: string;
  onSaved(service: Service): void;
  onCancel(): void;
}) {
  const id = useId();
  const [values, setValues] = useState<Values>(() => initialValues(service));
  const request: ApiRequest = service
    ? { method: 'PATCH', path: `/api/services/uuid/${encodeURIComponent(service.uuid)}`, body: updateBody(values, service) }
    : { method: 'POST', path: '/api/services', body: createBody(values, organizationUuid) };
  const save = useApiAction(async (r: ApiRequest) => onSaved(await call<Service>(r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(request);
  };
  const fields = [
    { key: 'name', label: 'Name', hint: 'Imports match the service column against it, ignoring case.' },
    { key: 'code', label: 'Code', hint: 'Optional; imports match the service_code column against it.' },
    { key: 'categories', label: 'Categories', hint: 'Separated by commas, e.g. Maintenance, Plumbing.' },
  ] as const;
  const title = service ? `Edit ${service.name}` : 'New service';
  return (
    <form className="panel" aria-label={title} onSubmit={submit} noValidate>
      <h2>{title}</h2>
      <div className="qr-form-grid">
        {fields.map((field) => (
          <TextField
            key={field.key}
            id={`${id}-${field.key}`}
            label={field.label}
            hint={field.hint}
            problem={
              fieldProblem(save.error, field.key) ??
              (field.key === 'categories' ? fieldProblem(save.error, 'categories.0.name') : undefined)
            }
            value={values[field.key]}
            onChange={(value) => setValues((v) => ({ ...v, [field.key]: value }))}
            required={field.key === 'name'}
          />
        ))}
      </div>
      <ErrorNotice error={save.error} onDismiss={save.clearError} fieldsShown={['name', 'code', 'categories']} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.running}>
          {save.running ? 'Saving…' : service ? 'Save changes' : 'Create service'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <CurlDisclosure request={request} />
    </form>
  );
}
