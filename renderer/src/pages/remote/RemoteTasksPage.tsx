import '../../components/remote/remote.css';
import { type FormEvent, useEffect, useState } from 'react';
import type { BackgroundTask } from '../../api/types.ts';
import { useQuery } from '@tanstack/react-query';
import { profilesQuery } from '../../api/profiles-query.ts';
import { GoToEmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ListView, RefreshButton } from '../../components/ListView.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Link, useSearchParams } from '../../router.tsx';
import { isRunning } from '../../api/task-format.ts';
import { TASK_COLUMNS, TaskRow } from '../../components/TaskRow.tsx';
import { remoteTaskListRequest, remoteTaskPage } from '../../api/remote-api.ts';
import { useRemoteListPage } from './use-remote-list-page.ts';
import { REMOTE_POLL } from '../../api/remote-poll.ts';

/** The organization to list when the profile names none: typed here, kept in the address. */
function OrganizationForm({ profile, value, onSubmit }: { profile: string; value: string; onSubmit(uuid: string): void }) {
  const [text, setText] = useState(value);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(text.trim());
  };
  return (
    <form className="toolbar" onSubmit={submit} aria-label="Organization">
      <label className="inline-field">
        organization_uuid on {profile}
        <input value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} size={38} />
      </label>
      <button type="submit" className="button button-small">
        Show tasks
      </button>
    </form>
  );
}

/** Background tasks of an organization on a profile's service (GET /api/background-tasks through the proxy). */
export function RemoteTasksPage({ profile }: { profile: string }) {
  const profiles = useQuery(profilesQuery);
  const saved = profiles.data?.items.find((p) => p.name === profile);
  const [params, setParams] = useSearchParams();
  const organization = params.get('organization_uuid') ?? saved?.organization_uuid ?? '';
  const paged = useRemoteListPage<BackgroundTask>((paging) =>
    organization && saved ? remoteTaskListRequest(profile, { organization_uuid: organization, ...paging }) : null,
  );
  const { data, refetch, error } = paged.list;

  // Running tasks are checked again at the slow end of the spec's 2 to 5 s; a failure stops that until Refresh.
  const anyRunning = data?.items.some(isRunning) ?? false;
  useEffect(() => {
    if (!anyRunning || error) return;
    const timer = setInterval(() => void refetch(), REMOTE_POLL.maxMs);
    return () => clearInterval(timer);
  }, [anyRunning, error, refetch]);

  const back = <Link to="/remote">← Remote services</Link>;
  if (profiles.data && !saved) {
    return (
      <>
        <PageHeader title={`Tasks on ${profile}`} back={back} />
        <section className="panel">
          <GoToEmptyState title={`There is no profile named ${profile}`} to="/remote" label="Go to Remote services">
            <p>It may have been removed. Add it again under Remote services to see its tasks.</p>
          </GoToEmptyState>
        </section>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={`Tasks on ${profile}`}
        description={
          saved ? (
            <>Background tasks at {saved.base_url}, newest first, read through this QR Sandbox server with the profile’s key.</>
          ) : undefined
        }
        back={back}
      />
      <ErrorNotice error={profiles.error} onRetry={() => void profiles.refetch()} />
      <section className="panel" aria-label="Remote task list">
        <ListView
          paged={paged}
          label={`Background tasks on ${profile}`}
          noun={['task', 'tasks']}
          columns={TASK_COLUMNS}
          row={(task) => <TaskRow key={task.uuid} task={task} href={remoteTaskPage(profile, task.uuid)} />}
          loadingText={`Asking ${profile} for its tasks…`}
          toolbar={
            <>
              {saved && !saved.organization_uuid && (
                <OrganizationForm
                  key={organization}
                  profile={profile}
                  value={organization}
                  onSubmit={(uuid) => setParams({ organization_uuid: uuid, page: null })}
                />
              )}
              {saved && organization && (
                <div className="toolbar">
                  <span className="muted">
                    Organization <code>{organization}</code>
                  </span>
                  <div className="toolbar-end">
                    <RefreshButton list={paged.list} />
                  </div>
                </div>
              )}
              {saved && !organization && (
                <p className="muted">The profile names no organization: enter the organization_uuid on that service to list its tasks.</p>
              )}
            </>
          }
          empty={
            <GoToEmptyState title={`No background tasks on ${profile} yet`} to="/imports" label="Go to Imports">
              <p>Send a file there from the Imports page (“Send to” {profile}); its task appears here.</p>
            </GoToEmptyState>
          }
        />
      </section>
    </>
  );
}
