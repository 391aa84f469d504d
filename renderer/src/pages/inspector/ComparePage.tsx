import { useMemo, useState } from 'react';
import './inspector.css';
import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { messageQuery } from '../../api/message-query.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { type ChangedValue, changedValues, jsonDifferences } from '../../components/json-paths.ts';
import { JsonTree } from '../../components/JsonTree.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Link, useSearchParams } from '../../router.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { type Message, messagePath } from '../../api/inspector-types.ts';
import { eventLabel } from '../../api/webhook-events.ts';
import { DecryptionBadge, SignatureBadge } from '../../components/Verdicts.tsx';
import { Table } from '../../components/Table.tsx';
import { Panel } from '../../components/Panel.tsx';
import { Loading } from '../../components/QueryState.tsx';

/** Header names whose values differ (or that only one of the two has). */
function headerDifferences(a: Record<string, string>, b: Record<string, string>): Set<string> {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return new Set([...names].filter((n) => a[n] !== b[n]));
}

function Side({ message, inboxUuid, letter }: { message: Message; inboxUuid: string; letter: string }) {
  return (
    <div className="compare-side-head">
      <h3>
        {letter}:{' '}
        <Link to={`/inspector/${inboxUuid}/messages/${message.uuid}`}>
          {message.event_type ? eventLabel(message.event_type) : message.method} · {formatDateTime(message.received_on)}
        </Link>
      </h3>
      <div className="badge-row">
        <DecryptionBadge decrypted={message.decrypted} reason={message.decryption_error} />
        <SignatureBadge status={message.signature_status} />
      </div>
      <CurlDisclosure request={{ method: 'GET', path: messagePath(inboxUuid, message.uuid) }} label={`Show curl for ${letter}`} />
    </div>
  );
}

function HeaderComparison({
  a,
  b,
  marked,
  onlyDifferences,
}: {
  a: Message;
  b: Message;
  marked: ReadonlySet<string>;
  onlyDifferences: boolean;
}) {
  const names = [...new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])].filter((n) => !onlyDifferences || marked.has(n));
  if (names.length === 0) return <p className="muted">{onlyDifferences ? 'The headers are the same.' : 'No headers.'}</p>;
  return (
    <Table label="Headers side by side" headings={['Header', 'A', 'B']} className="table table-compact compare-table">
      {names.map((name) => (
        <tr key={name} className={marked.has(name) ? 'row-marked' : undefined} data-differs={marked.has(name) ? 'true' : undefined}>
          <th scope="row" className="header-name">
            {name}
          </th>
          <td className="header-value">{a.headers[name] ?? <span className="muted">(absent)</span>}</td>
          <td className="header-value">{b.headers[name] ?? <span className="muted">(absent)</span>}</td>
        </tr>
      ))}
    </Table>
  );
}

const MAX_LISTED = 200;

function shown(value: unknown) {
  return value === undefined ? <span className="muted">(absent)</span> : JSON.stringify(value);
}

function ChangedValuesTable({ changes }: { changes: ChangedValue[] }) {
  if (changes.length === 0) return <p className="muted">The decrypted JSON is the same in both.</p>;
  return (
    <>
      <Table label="Changed values" headings={['Path', 'A', 'B']} className="table table-compact compare-table">
        {changes.slice(0, MAX_LISTED).map((c) => (
          <tr key={c.path}>
            <th scope="row" className="header-name">
              {c.path || '(the whole document)'}
            </th>
            <td className="header-value">{shown(c.a)}</td>
            <td className="header-value">{shown(c.b)}</td>
          </tr>
        ))}
      </Table>
      {changes.length > MAX_LISTED && (
        <p className="muted small">
          The first {MAX_LISTED} of {changes.length} changes; the trees below mark them all.
        </p>
      )}
    </>
  );
}

/** Two messages side by side: headers and decrypted JSON, with what differs highlighted. */
export function ComparePage({ inboxUuid }: { inboxUuid: string }) {
  const [params] = useSearchParams();
  const aUuid = params.get('a') ?? '';
  const bUuid = params.get('b') ?? '';
  const a = useQuery({ ...messageQuery(inboxUuid, aUuid), enabled: aUuid !== '' });
  const b = useQuery({ ...messageQuery(inboxUuid, bUuid), enabled: bUuid !== '' });
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const headerMarks = useMemo(
    () => (a.data && b.data ? headerDifferences(a.data.headers, b.data.headers) : new Set<string>()),
    [a.data, b.data],
  );
  const jsonMarks = useMemo(
    () => (a.data && b.data ? jsonDifferences(a.data.envelope, b.data.envelope) : new Set<string>()),
    [a.data, b.data],
  );
  const changes = useMemo(() => (a.data && b.data ? changedValues(a.data.envelope, b.data.envelope) : []), [a.data, b.data]);
  const inbox = useQuery(getQuery('/api/inboxes/uuid/{uuid}', { path: { uuid: inboxUuid } }));
  const back = <Link to={`/inspector/${inboxUuid}`}>← {inbox.data?.name ?? 'Inbox'}</Link>;

  if (!aUuid || !bUuid) {
    return (
      <>
        <PageHeader title="Compare messages" back={back} />
        <p className="notice notice-info">
          Pick two messages in the inbox's list (tick them), or use “Compare with another message” on a message's page.
        </p>
      </>
    );
  }
  if (!a.data || !b.data) {
    return (
      <>
        <PageHeader title="Compare messages" back={back} />
        {(a.isFetching || b.isFetching) && <Loading>Loading both messages…</Loading>}
        <ErrorNotice error={a.error} onRetry={() => void a.refetch()} />
        <ErrorNotice error={b.error} onRetry={() => void b.refetch()} />
      </>
    );
  }
  const envelopeChanges = changes.length;

  return (
    <>
      <PageHeader
        title="Compare messages"
        back={back}
        description={`${headerMarks.size} ${headerMarks.size === 1 ? 'header differs' : 'headers differ'}; ${envelopeChanges} ${envelopeChanges === 1 ? 'value differs' : 'values differ'} in the decrypted JSON. Differences are highlighted.`}
      />
      <section className="panel">
        <div className="compare-grid">
          <Side message={a.data} inboxUuid={inboxUuid} letter="A" />
          <Side message={b.data} inboxUuid={inboxUuid} letter="B" />
        </div>
      </section>
      <Panel
        title="Headers"
        actions={
          <label className="checkbox">
            <input type="checkbox" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} />
            Only the headers that differ
          </label>
        }
      >
        <HeaderComparison a={a.data} b={b.data} marked={headerMarks} onlyDifferences={onlyDifferences} />
      </Panel>
      <Panel title="Changed values">
        <ChangedValuesTable changes={changes} />
      </Panel>
      <Panel title="Decrypted JSON">
        <div className="compare-grid">
          {[
            { letter: 'A', message: a.data },
            { letter: 'B', message: b.data },
          ].map(({ letter, message }) => (
            <div key={letter} className="compare-column">
              <h3>{letter}</h3>
              {message.envelope !== null && message.envelope !== undefined ? (
                <JsonTree
                  value={message.envelope}
                  label={`Decrypted JSON of ${letter}`}
                  openDepth={Number.POSITIVE_INFINITY}
                  marked={jsonMarks}
                />
              ) : (
                <p className="muted">
                  {message.decrypted ? 'The plaintext is not JSON.' : `Not decrypted: ${message.decryption_error ?? 'no reason given'}`}
                </p>
              )}
            </div>
          ))}
        </div>
      </Panel>
    </>
  );
}
