import type { ReactNode } from 'react';
import type { ApiRequest } from '../api/client.ts';
import { CurlDisclosure } from './CurlDisclosure.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';

/** What a form's submit button needs from its action (useApiAction). */
export interface FormAction {
  running: boolean;
  error: unknown;
  clearError(): void;
}

/**
 * The primary submit button; while the action runs it is disabled and says so ("Saving…").
 * `inRow`: it ends a row of fields (form-row), aligned with their inputs.
 */
export function SubmitButton({
  running,
  busyLabel,
  inRow = false,
  children,
}: {
  running: boolean;
  busyLabel: string;
  inRow?: boolean;
  children: ReactNode;
}) {
  const button = (
    <button type="submit" className="button button-primary" disabled={running}>
      {running ? busyLabel : children}
    </button>
  );
  return inRow ? <div className="field field-button">{button}</div> : button;
}

/** A button that runs an action (useApiAction); while it runs it is disabled and says so when `busyLabel` is given. */
export function ActionButton({
  action,
  busyLabel,
  className = 'button',
  disabled = false,
  children,
}: {
  action: { running: boolean; run(): Promise<unknown> };
  busyLabel?: string;
  className?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="button" className={className} onClick={() => void action.run()} disabled={action.running || disabled}>
      {action.running && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}

/** Empties a form and what it showed; there only while there is something to clear. */
export function ClearButton({ shown, onClear }: { shown: boolean; onClear(): void }) {
  if (!shown) return null;
  return (
    <button type="button" className="button button-quiet" onClick={onClear}>
      Clear
    </button>
  );
}

/** A Cancel button that does not submit. */
/** `defaultFocus`: where a modal dialog puts the focus when it opens (see useModal). */
export function CancelButton({ onCancel, disabled, defaultFocus }: { onCancel(): void; disabled?: boolean; defaultFocus?: boolean }) {
  return (
    <button type="button" className="button" onClick={onCancel} disabled={disabled} data-default-focus={defaultFocus || undefined}>
      Cancel
    </button>
  );
}

/**
 * The end of a form: the action's error (without the problems shown at their fields), the
 * submit button (and Cancel), and the curl of the request it sends.
 */
export function FormActions({
  action,
  submitLabel,
  busyLabel = 'Saving…',
  fieldsShown,
  onCancel,
  request,
  className = 'form-actions',
}: {
  action: FormAction;
  submitLabel: ReactNode;
  busyLabel?: string;
  fieldsShown: string[];
  onCancel?: (() => void) | undefined;
  request: ApiRequest;
  className?: string;
}) {
  return (
    <>
      <ErrorNotice error={action.error} onDismiss={action.clearError} fieldsShown={fieldsShown} />
      <div className={className}>
        <SubmitButton running={action.running} busyLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
        {onCancel && <CancelButton onCancel={onCancel} />}
      </div>
      <CurlDisclosure request={request} />
    </>
  );
}
