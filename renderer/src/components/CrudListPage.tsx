import { useQueryClient } from '@tanstack/react-query';
import { type ComponentProps, Fragment, type ReactNode, useEffect, useRef, useState } from 'react';
import type { ApiRequest } from '../api/client.ts';
import type { GetParams } from '../api/get-query.ts';
import { type ListPage, useListPage } from '../api/use-list-page.ts';
import { useSignedIn } from '../auth/session-store.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { actionsColumn, ListView } from './ListView.tsx';
import { PageHeader } from './PageHeader.tsx';

export interface FormProps<T> {
  organizationUuid: string;
  onSaved(saved: T): void;
  onCancel(): void;
}

/** The resources a CrudListPage lists (GET path), edits (PATCH path/uuid/{uuid}) and deletes. */
export type CrudPath = '/api/qrcodes' | '/api/services' | '/api/import-handlers';

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The list page of a resource the user creates, edits and deletes (QR codes, services, import
 * handlers) at `path` (GET path, DELETE path/uuid/<uuid>): the New button, the form above the
 * list, the notice of what was done, the list with Edit and Delete per row (not for viewers),
 * and the delete question. `kind` names one ("service"): the button, the list and its texts.
 */
export function CrudListPage<T extends { uuid: string; name: string }>({
  title,
  description,
  tabs,
  kind,
  path,
  query,
  named = (item) => `the ${kind} ${item.name}`,
  renderForm,
  savedNotice,
  deleteText,
  columns,
  beforeList,
  opened,
  onChanged,
  ...list
}: Omit<ComponentProps<typeof ListView<T>>, 'paged' | 'noun'> & {
  title: string;
  description: ReactNode;
  tabs?: ReactNode;
  kind: string;
  path: CrudPath;
  /** Filters sent with the list request. */
  query?: Record<string, string>;
  /** How the texts name an item: "the service Plumbing" by default. */
  named?(item: T): string;
  renderForm(item: T | null, props: FormProps<T>): ReactNode;
  savedNotice(saved: T, created: boolean): string;
  /** What deleting it does, in the delete question. */
  deleteText(item: T): ReactNode;
  /** Shown between the form and the list (the QR codes' map). */
  beforeList?: ReactNode;
  /** An item opened from outside the list (a point of the map): its form shows until closed. */
  opened?: { item: T; close(): void } | null;
  /** After a save or a delete, beside the list's own reload. */
  onChanged?(): void;
}) {
  const { session } = useSignedIn();
  const canEdit = session.role !== 'viewer';
  const paged = useListPage(
    path,
    (paging) => ({ query: { organization_uuid: session.organization_uuid, ...paging, ...query } }) as GetParams<CrudPath>,
    25,
  ) as unknown as ListPage<T>;
  const queryClient = useQueryClient();
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: [path] });
    onChanged?.();
  };
  const [chosen, setChosen] = useState<T | 'new' | null>(null);
  const editing = opened?.item ?? chosen;
  const setEditing = (item: T | 'new' | null) => {
    setChosen(item);
    opened?.close();
  };
  const form = useRef<HTMLDivElement>(null);
  const openedUuid = opened?.item.uuid;
  // Opened from the map (by a click or the keyboard's Enter): the form comes into view with the focus in it.
  useEffect(() => {
    if (!openedUuid) return;
    form.current?.scrollIntoView({ block: 'nearest' });
    form.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus({ preventScroll: true });
  }, [openedUuid]);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const deleteRequest = (item: T): ApiRequest => ({ method: 'DELETE', path: `${path}/uuid/${encodeURIComponent(item.uuid)}` });
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          canEdit && editing === null ? (
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              New {kind}
            </button>
          ) : undefined
        }
      />
      {tabs}
      {notice && (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      <div ref={form}>
        {editing !== null && (
          <Fragment key={editing === 'new' ? 'new' : editing.uuid}>
            {renderForm(editing === 'new' ? null : editing, {
              organizationUuid: session.organization_uuid,
              onCancel: () => setEditing(null),
              onSaved: (saved) => {
                setNotice(savedNotice(saved, editing === 'new'));
                setEditing(null);
                reload();
              },
            })}
          </Fragment>
        )}
      </div>
      {beforeList}
      <section className="panel" aria-label={`${capital(kind)} list`}>
        <ListView<T>
          {...list}
          paged={paged}
          noun={[kind, `${kind}s`]}
          columns={canEdit ? [...columns, actionsColumn<T>((item) => item.name, setEditing, setDeleting)] : columns}
        />
      </section>
      {deleting && (
        <ConfirmDialog
          title={`Delete ${named(deleting)}?`}
          confirmLabel={`Delete ${kind}`}
          request={deleteRequest(deleting)}
          onDone={() => {
            setNotice(`Deleted ${named(deleting)}.`);
            setDeleting(null);
            reload();
          }}
          onCancel={() => setDeleting(null)}
        >
          {deleteText(deleting)}
        </ConfirmDialog>
      )}
    </>
  );
}
