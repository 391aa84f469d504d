import './demo-data.css';
import { useState } from 'react';
import type { Schemas } from '../../api/types.ts';
import type { DemoResetEvent } from '../../live/events.ts';

type DemoResetResult = Schemas['DemoResetResult'];
import { type ApiRequest, call } from '../../api/client.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { useModal } from '../../components/ConfirmDialog.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { useLiveEvent } from '../../live/live-store.ts';
import { Link } from '../../router.tsx';
import { StatList } from '../../components/StatList.tsx';
import { Panel } from '../../components/Panel.tsx';
import { ActionButton, CancelButton } from '../../components/FormActions.tsx';
import { countOf } from '../../../../common/count-words.ts';

const DELETED = [
  'QR codes and their tags',
  'appointments',
  'import tasks, with their excluded rows and uploaded files',
  'webhooks, with their events and delivery logs',
  'inboxes, with every message they received',
  'service confirmations',
  'import handlers and services',
];

/** The whole reset as one percentage: finished steps, plus the running step's own progress. */
function overall(step: DemoResetEvent | null): number {
  if (!step) return 0;
  if (step.done) return 100;
  return ((step.step - 1 + (step.progress ?? 0) / 100) / step.of) * 100;
}

function ResetProgress({ step }: { step: DemoResetEvent | null }) {
  return (
    <div className="demo-progress" role="status" aria-live="polite">
      <ProgressBar value={overall(step)} label="Reset progress" />
      <p className="muted">{step ? `Step ${step.step} of ${step.of}: ${step.label}…` : 'Starting…'}</p>
    </div>
  );
}

function ResetResult({ result }: { result: DemoResetResult }) {
  const { deleted, seeded } = result;
  const stats = seeded.seeded
    ? [
        { label: 'sites imported', value: seeded.sites ?? 0 },
        { label: 'appointments this week', value: seeded.appointments ?? 0 },
        { label: 'rows excluded, with reasons', value: (seeded.excluded_sites ?? 0) + (seeded.excluded_appointments ?? 0) },
        { label: 'demo services', value: seeded.services_added ?? 0 },
      ]
    : [];
  return (
    <section className="demo-result" aria-labelledby="demo-result-title">
      <h3 id="demo-result-title">{seeded.seeded ? 'The demo data is ready' : 'The data was deleted, but no demo data was added'}</h3>
      <p className="muted">
        Deleted {countOf(deleted.qrcodes, 'QR code')}, {countOf(deleted.appointments, 'appointment')}, {countOf(deleted.tasks, 'task')},{' '}
        {countOf(deleted.webhooks, 'webhook')} with {countOf(deleted.deliveries, 'delivery', 'deliveries')},{' '}
        {countOf(deleted.inboxes, 'inbox', 'inboxes')} with {countOf(deleted.inbox_messages, 'message')},{' '}
        {countOf(deleted.service_confirmations, 'service confirmation')}, {countOf(deleted.import_handlers, 'import handler')} and{' '}
        {countOf(deleted.services, 'service')}.
      </p>
      {seeded.seeded ? (
        <>
          <StatList stats={stats.map((s) => ({ ...s, key: s.label }))} label="Demo data added" />
          <p>
            Webhooks send every event to the demo inbox (one message there has a broken signature) and to the flaky app (which fails the
            first two attempts of each check-out). See the <Link to="/qrcodes">QR codes</Link>, the{' '}
            <Link to="/appointments">appointments</Link>, the <Link to="/tasks">import tasks</Link> and the{' '}
            <Link to="/inspector">inspector</Link>.
          </p>
        </>
      ) : (
        <p className="notice notice-info">
          {seeded.reason ? `Nothing was added: ${seeded.reason}.` : 'Nothing was added.'} Reset again to add the demo data.
        </p>
      )}
    </section>
  );
}

/** The question before the reset; while the reset runs it shows its progress and cannot be dismissed. */
function ResetDialog({
  request,
  organizationName,
  onCancel,
  onDone,
}: {
  request: ApiRequest;
  organizationName: string;
  onCancel(): void;
  onDone(result: DemoResetResult): void;
}) {
  const dialog = useModal();
  const [step, setStep] = useState<DemoResetEvent | null>(null);
  const reset = useApiAction(async () => {
    setStep(null);
    onDone(await call<DemoResetResult>(request));
  });
  useLiveEvent('demo.reset', (event) => {
    if (reset.running) setStep(event);
  });
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="reset-title"
      onCancel={(event) => {
        event.preventDefault();
        if (!reset.running) onCancel();
      }}
    >
      <h2 id="reset-title">Reset the demo data?</h2>
      <p>
        This deletes everything <strong>{organizationName}</strong> has made, and cannot be undone:
      </p>
      <ul className="demo-deleted">
        {DELETED.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p>Then it adds the demo data again. API keys and settings stay. It takes a few seconds.</p>
      {reset.running && <ResetProgress step={step} />}
      <ErrorNotice error={reset.error} />
      <CurlDisclosure request={request} />
      <div className="dialog-actions">
        <CancelButton onCancel={onCancel} disabled={reset.running} defaultFocus />
        <ActionButton action={reset} className="button button-danger" busyLabel="Resetting…">
          Delete and reset
        </ActionButton>
      </div>
    </dialog>
  );
}

/** Settings > Demo data: reset the organization to a freshly seeded demo (POST /api/demo/reset, admin). */
export function DemoDataSection() {
  const { session } = useSignedIn();
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<DemoResetResult | null>(null);
  const request: ApiRequest = { method: 'POST', path: '/api/demo/reset', body: { organization_uuid: session.organization_uuid } };

  return (
    <Panel title="Demo data">
      <p className="muted">
        Start a demo over: delete everything this organization has made and add the demo data again, as <code>serve --demo</code> does on an
        empty data folder: the demo services, 300 sites from a finished import with excluded rows, a week of appointments from today, the
        demo inbox and a flaky app with a webhook each, and one message with a broken signature. API keys and settings stay, and you stay
        signed in.
      </p>
      {session.role === 'admin' ? (
        <div className="form-actions">
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              setResult(null);
              setConfirming(true);
            }}
          >
            Reset demo data…
          </button>
        </div>
      ) : (
        <p className="notice notice-info">
          Only an admin key can reset the demo data. This session uses {session.role === 'editor' ? 'an' : 'a'} {session.role} key.
        </p>
      )}
      {result && <ResetResult result={result} />}
      {session.role === 'admin' && <CurlDisclosure request={request} label="Show curl to reset" />}
      {confirming && (
        <ResetDialog
          request={request}
          organizationName={session.organization_name}
          onCancel={() => setConfirming(false)}
          onDone={(answer) => {
            setResult(answer);
            setConfirming(false);
          }}
        />
      )}
    </Panel>
  );
}
