import { type FormEvent, type ReactNode, useState } from 'react';
import { type ApiRequest, call } from '../api/client.ts';
import { useApiAction } from '../api/use-api-action.ts';
import { type FormAction, FormActions } from './FormActions.tsx';

/**
 * The state of a form that creates (item null: POST path) or edits (PATCH path/uuid/<uuid>) a
 * resource: the values as typed, the request they make, and the save action.
 */
export function useResourceForm<T extends { uuid: string }, V>({
  path,
  item,
  organizationUuid,
  initialValues,
  createBody,
  updateBody,
  onSaved,
}: {
  path: string;
  item: T | null;
  organizationUuid: string;
  initialValues(item: T | null): V;
  createBody(values: V, organizationUuid: string): unknown;
  /** Only what changed. */
  updateBody(values: V, item: T): unknown;
  onSaved(saved: T): void;
}) {
  const [values, setValues] = useState<V>(() => initialValues(item));
  const request: ApiRequest = item
    ? { method: 'PATCH', path: `${path}/uuid/${encodeURIComponent(item.uuid)}`, body: updateBody(values, item) }
    : { method: 'POST', path, body: createBody(values, organizationUuid) };
  const save = useApiAction(async (r: ApiRequest) => onSaved(await call<T>(r)));
  const setValue = <K extends keyof V>(key: K, value: V[K]) => setValues((v) => ({ ...v, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(request);
  };
  return { values, setValues, setValue, request, save, submit };
}

/** The create or edit form of a `kind` ("service"): its title, fields, error, Save and Cancel, and curl. */
export function ResourceForm({
  kind,
  item,
  form,
  fieldsShown,
  onCancel,
  children,
}: {
  kind: string;
  item: { name: string } | null;
  form: { request: ApiRequest; save: FormAction; submit(event: FormEvent): void };
  /** Fields whose problems show at the field, not again in the error. */
  fieldsShown: string[];
  onCancel(): void;
  children: ReactNode;
}) {
  const title = item ? `Edit ${item.name}` : `New ${kind}`;
  return (
    <form className="panel" aria-label={title} onSubmit={form.submit} noValidate>
      <h2>{title}</h2>
      {children}
      <FormActions
        action={form.save}
        submitLabel={item ? 'Save changes' : `Create ${kind}`}
        fieldsShown={fieldsShown}
        onCancel={onCancel}
        request={form.request}
      />
    </form>
  );
}
