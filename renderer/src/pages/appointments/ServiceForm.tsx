import { useId } from 'react';
import type { CreateServiceBody, Service, UpdateServiceBody } from '../../api/appointment-types.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import type { FormProps } from '../../components/CrudListPage.tsx';
import { TextField } from '../../components/FormField.tsx';
import { ResourceForm, useResourceForm } from '../../components/ResourceForm.tsx';

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
export function ServiceForm({ service, ...props }: { service: Service | null } & FormProps<Service>) {
  const id = useId();
  const form = useResourceForm({ path: '/api/services', item: service, initialValues, createBody, updateBody, ...props });
  const fields = [
    { key: 'name', label: 'Name', hint: 'Imports match the service column against it, ignoring case.' },
    { key: 'code', label: 'Code', hint: 'Optional; imports match the service_code column against it.' },
    { key: 'categories', label: 'Categories', hint: 'Separated by commas, e.g. Maintenance, Plumbing.' },
  ] as const;
  return (
    <ResourceForm kind="service" item={service} form={form} fieldsShown={['name', 'code', 'categories']} onCancel={props.onCancel}>
      <div className="qr-form-grid">
        {fields.map((field) => (
          <TextField
            key={field.key}
            id={`${id}-${field.key}`}
            label={field.label}
            hint={field.hint}
            problem={
              fieldProblem(form.save.error, field.key) ??
              (field.key === 'categories' ? fieldProblem(form.save.error, 'categories.0.name') : undefined)
            }
            value={form.values[field.key]}
            onChange={(value) => form.setValue(field.key, value)}
            required={field.key === 'name'}
          />
        ))}
      </div>
    </ResourceForm>
  );
}
