import { type ReactNode, useEffect, useRef } from 'react';
import type { ApiRequest } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

/** A modal question before a destructive call; the call's error stays inside the dialog. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  request,
  action,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  request: ApiRequest;
  action(): Promise<void>;
  onCancel(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const run = useApiAction(action);
  useEffect(() => {
    const d = dialog.current;
    d?.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="confirm-title" onCancel={onCancel}>
      <h2 id="confirm-title">{title}</h2>
      {children}
      <ErrorNotice error={run.error} />
      <CurlDisclosure request={request} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={() => void run.run()} disabled={run.running}>
          {run.running ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
