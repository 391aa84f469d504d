import { useState } from 'react';
import { type ApiRequest, download } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { type Inbox, inboxPath } from '../../api/inspector-types.ts';
import { useMessageFilters } from './message-filters.ts';
import { Panel } from '../../components/Panel.tsx';

/** Download the messages (with the list's filters) as JSON or HAR, the signature masked unless asked for. */
export function ExportPanel({ inbox }: { inbox: Inbox }) {
  const { session } = useSignedIn();
  const { query, active } = useMessageFilters();
  const [format, setFormat] = useState<'json' | 'har'>('json');
  const [includeSignature, setIncludeSignature] = useState(false);
  const request: ApiRequest = {
    method: 'GET',
    path: `${inboxPath(inbox.uuid)}/export`,
    query: { organization_uuid: session.organization_uuid, format, include_signature: includeSignature ? 'true' : undefined, ...query },
  };
  const [saved, setSaved] = useState<string | null>(null);
  const run = useApiAction(async () => {
    setSaved(null);
    setSaved(await download(request, `inbox.${format}`));
  });
  return (
    <Panel title="Export">
      <p className="muted">
        {active ? 'The messages that match the filters above' : 'All messages'}, oldest first. HAR opens in a browser's network panel; the
        verdicts and the decrypted envelope ride along.
      </p>
      <div className="toolbar">
        <SelectField label="Format" value={format} onChange={(v) => setFormat(v === 'har' ? 'har' : 'json')}>
          <option value="json">JSON</option>
          <option value="har">HAR 1.2</option>
        </SelectField>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={includeSignature}
            onChange={(e) => setIncludeSignature(e.target.checked)}
            aria-describedby="export-signature-note"
          />
          Include the signature
        </label>
        <button type="button" className="button" onClick={() => void run.run()} disabled={run.running || inbox.message_count === 0}>
          {run.running ? 'Exporting…' : 'Download export'}
        </button>
      </div>
      <p id="export-signature-note" className={includeSignature ? 'notice notice-warning' : 'field-hint'}>
        {includeSignature
          ? 'The X-Service-Signature header is key material: its first 32 characters are the AES key, so anyone with the file can decrypt every exported message. Share it with care.'
          : 'X-Service-Signature is masked in the file: it is the decryption key of each message. Inbox secrets are never exported.'}
      </p>
      <ErrorNotice error={run.error} onDismiss={run.clearError} />
      {saved && (
        <p className="notice notice-success" role="status">
          Saved as {saved}.
        </p>
      )}
      <CurlDisclosure request={request} download />
    </Panel>
  );
}
