import { type ApiRequest, call } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SandboxOnlyBadge } from '../../components/SandboxOnlyBadge.tsx';
import { webhookPath } from '../../api/webhook-path.ts';
import type { Webhook } from '../../api/webhook-types.ts';

/** The webhook field sandbox_diagnostics as a checkbox (registration form and webhook page). */
export function SandboxDiagnosticsCheckbox({
  checked,
  disabled = false,
  onChange,
}: {
  checked: boolean;
  disabled?: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="checkbox checkbox-card">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span className="checkbox-title">
          Send diagnostic headers <SandboxOnlyBadge />
        </span>
        <span className="field-hint checkbox-hint">
          Adds <code>X-Sandbox-Event</code>, <code>X-Sandbox-Delivery-Id</code> and <code>X-Sandbox-Attempt</code> to each delivery. The
          real service sends only <code>Content-Type</code> and <code>X-Service-Signature</code>, so an app that reads these breaks there.
          The inspector and the delivery log show the attempt numbers without them.
        </span>
      </span>
    </label>
  );
}

/** Switches the webhook's diagnostic headers on or off at once (PATCH). */
export function SandboxDiagnosticsSwitch({
  webhook,
  canEdit,
  onChanged,
}: {
  webhook: Webhook;
  canEdit: boolean;
  onChanged(next: Webhook): void;
}) {
  const save = useApiAction(async (on: boolean) => {
    const request: ApiRequest = { method: 'PATCH', path: webhookPath(webhook.uuid), body: { sandbox_diagnostics: on } };
    onChanged(await call<Webhook>(request));
  });
  const saved = webhook.sandbox_diagnostics === true;
  // It moves at once; if the server refuses, it moves back and the error says why.
  const shown = save.running ? !saved : saved;
  return (
    <div className="switch-block">
      <SandboxDiagnosticsCheckbox checked={shown} disabled={!canEdit} onChange={(on) => !save.running && void save.run(on)} />
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
    </div>
  );
}
