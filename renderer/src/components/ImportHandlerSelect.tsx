import './import-handler-select.css';
import { useQuery } from '@tanstack/react-query';
import { getQuery, getRequest } from '../api/get-query.ts';
import { CurlDisclosure } from './CurlDisclosure.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import { SelectField } from './SelectField.tsx';
import { Link } from '../router.tsx';
import { DEFAULT_IMPORT_HANDLER } from '../api/import-api.ts';

/** The org_identifier of an appointment import: `default` (the template's names) or a saved handler's slug. */
export function ImportHandlerSelect({
  organizationUuid,
  value,
  onChange,
}: {
  organizationUuid: string;
  value: string;
  onChange(slug: string): void;
}) {
  const params = { query: { organization_uuid: organizationUuid, per_page: 100, kind: 'appointments' as const } };
  const request = getRequest('/api/import-handlers', params);
  const list = useQuery(getQuery('/api/import-handlers', params));
  const handlers = list.data?.items ?? [];
  const chosen = handlers.find((h) => h.slug === value);
  return (
    <div className="import-handler-select">
      <SelectField label="Import handler (org_identifier)" value={value} onChange={onChange}>
        <option value={DEFAULT_IMPORT_HANDLER}>default — the template&apos;s column names</option>
        {handlers.map((h) => (
          <option key={h.uuid} value={h.slug}>
            {h.slug} — {h.name}
          </option>
        ))}
      </SelectField>
      <p className="field-hint">
        {chosen
          ? `Reads ${Object.entries(chosen.mapping)
              .map(([title, field]) => `“${title}” as ${field}`)
              .join(', ')}; other columns by their field names.`
          : 'Columns are read by the field names of the template.'}{' '}
        {list.data && handlers.length === 0 ? 'No saved handlers yet: ' : ''}
        <Link to="/appointments/import-handlers">Manage import handlers</Link>
      </p>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.error !== null && <CurlDisclosure request={request} />}
    </div>
  );
}
