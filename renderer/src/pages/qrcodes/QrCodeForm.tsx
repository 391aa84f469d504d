import { useId } from 'react';
import type { CreateQrCode, QrCode, UpdateQrCode } from './qrcode-types.ts';
import { describeError } from '../../api/describe-error.ts';
import type { FormProps } from '../../components/CrudListPage.tsx';
import { TextField } from '../../components/FormField.tsx';
import { ResourceForm, useResourceForm } from '../../components/ResourceForm.tsx';

const FIELDS = [
  {
    key: 'location',
    label: 'Address (location)',
    hint: 'Full address, e.g. 1 Mitchell St, Darwin NT 0800. It is located to a latitude, longitude and time zone.',
    wide: true,
  },
  { key: 'name', label: 'Name', hint: 'Defaults to the address.' },
  { key: 'type', label: 'Type', hint: 'A word such as SITE (the default).' },
  { key: 'external_reference_id', label: 'External reference', hint: 'Your own id; unique in the organization.' },
  { key: 'qr_code_name', label: 'QR code name', hint: '' },
  { key: 'label', label: 'Label', hint: '' },
] as const;
type FieldKey = (typeof FIELDS)[number]['key'];
type Values = Record<FieldKey, string>;

const NULLABLE: FieldKey[] = ['external_reference_id', 'qr_code_name', 'label'];

function initialValues(qr: QrCode | null): Values {
  return {
    location: qr?.location ?? '',
    name: qr?.name ?? '',
    type: qr?.type ?? '',
    external_reference_id: qr?.external_reference_id ?? '',
    qr_code_name: qr?.qr_code_name ?? '',
    label: qr?.label ?? '',
  };
}

function createBody(values: Values, organizationUuid: string): CreateQrCode {
  const body: CreateQrCode = { organization_uuid: organizationUuid, location: values.location.trim() };
  for (const { key } of FIELDS) {
    const value = values[key].trim();
    if (key !== 'location' && value !== '') body[key] = value;
  }
  return body;
}

/** Only the changed fields: cleared optional ones become null, so the server clears them. */
function updateBody(values: Values, qr: QrCode): UpdateQrCode {
  const before = initialValues(qr);
  const body: UpdateQrCode = {};
  for (const { key } of FIELDS) {
    const value = values[key].trim();
    if (value === before[key].trim()) continue;
    if (value === '' && NULLABLE.includes(key)) (body as Record<string, string | null>)[key] = null;
    else body[key] = value;
  }
  return body;
}

/** Create (qr null) or edit a QR code address; the server's field problems show under their fields. */
export function QrCodeForm({ qr, ...props }: { qr: QrCode | null } & FormProps<QrCode>) {
  const id = useId();
  const form = useResourceForm({ path: '/api/qrcodes', item: qr, initialValues, createBody, updateBody, ...props });
  const problems = form.save.error ? describeError(form.save.error).fields : [];
  const problemOf = (key: FieldKey) => problems.find((p) => p.field === key.replace(/_/g, ' '))?.message;
  return (
    <ResourceForm kind="QR code" item={qr} form={form} fieldsShown={FIELDS.map((f) => f.key.replace(/_/g, ' '))} onCancel={props.onCancel}>
      <div className="qr-form-grid">
        {FIELDS.map((field) => (
          <TextField
            key={field.key}
            id={`${id}-${field.key}`}
            className={'wide' in field ? 'field field-wide' : undefined}
            label={field.label}
            hint={field.hint}
            problem={problemOf(field.key)}
            value={form.values[field.key]}
            onChange={(value) => form.setValue(field.key, value)}
            required={field.key === 'location'}
          />
        ))}
      </div>
    </ResourceForm>
  );
}
