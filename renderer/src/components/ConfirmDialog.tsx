import { type ReactNode, useEffect, useId, useRef } from 'react';
import { type ApiRequest, call } from '../api/client.ts';
import { useApiAction } from '../api/use-api-action.ts';
import { CurlDisclosure } from './CurlDisclosure.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import { ActionButton, CancelButton } from './FormActions.tsx';

/**
 * A dialog element shown modal while the component is mounted. The focus starts on its
 * `data-default-focus` element (Cancel, in a question before a destructive call), not on the first
 * focusable one.
 */
export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    d?.showModal();
    d?.querySelector<HTMLElement>('[data-default-focus]')?.focus();
    return () => d?.close();
  }, []);
  return dialog;
}

/** A modal question before a destructive call; the call's error stays inside the dialog. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel = 'Working…',
  request,
  action,
  onDone,
  onCancel,
}: {
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  /** What the confirm button says while the call runs. */
  busyLabel?: string;
  /** What confirming sends (and shows as curl). */
  request: ApiRequest;
  /** What confirming does, when it is more than sending `request`. */
  action?(): Promise<unknown>;
  /** After it succeeded. */
  onDone?(): void;
  onCancel(): void;
}) {
  const dialog = useModal();
  const id = useId();
  const run = useApiAction(async () => {
    await (action ? action() : call(request));
    onDone?.();
  });
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={id} onCancel={onCancel}>
      <h2 id={id}>{title}</h2>
      {children}
      <ErrorNotice error={run.error} />
      <CurlDisclosure request={request} />
      <div className="dialog-actions">
        <CancelButton onCancel={onCancel} defaultFocus />
        <ActionButton action={run} className="button button-danger" busyLabel={busyLabel}>
          {confirmLabel}
        </ActionButton>
      </div>
    </dialog>
  );
}
