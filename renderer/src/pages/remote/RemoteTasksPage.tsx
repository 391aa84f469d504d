import './remote.css';
import { type FormEvent, useEffect, useState } from 'react';
import type { BackgroundTask, Page } from '../../api/types.ts';
import { useApiQuery } from '../../api/use-api.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { Link, positiveInt, useSearchParams } from '../../router.tsx';
import { isRunning } from '../tasks/task-format.ts';
import { TaskRow } from '../tasks/TaskRow.tsx';
import { profilesRequest, type PublicProfile, remoteTaskListRequest, remoteTaskPage } from './remote-api.ts';
import { REMOTE_POLL } from './remote-poll.ts';

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
  const profiles = useApiQuery<{ items: PublicProfile[] }>(profilesRequest);
  const saved = profiles.data?.items.find((p) => p.name === profile);
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), 10);
  const organization = params.get('organization_uuid') ?? saved?.organization_uuid ?? '';
  const request = organization ? remoteTaskListRequest(profile, { organization_uuid: organization, page, per_page: perPage }) : null;
  const tasks = useApiQuery<Page<BackgroundTask>>(profiles.data && saved ? request : null);
  const { data, reload, error } = tasks;

  // Running tasks are checked again at the slow end of the spec's 2 to 5 s; a failure stops that until Refresh.
  const anyRunning = data?.items.some(isRunning) ?? false;
  useEffect(() => {
    if (!anyRunning || error) return;
    const timer = setInterval(reload, REMOTE_POLL.maxMs);
    return () => clearInterval(timer);
  }, [anyRunning, error, reload]);

  const back = <Link to="/remote">← Remote services</Link>;
  if (profiles.data && !saved) {
    return (
      <>
        <PageHeader title={`Tasks on ${profile}`} back={back} />
        <section className="panel">
          <EmptyState title={`There is no profile named ${profile}`} action={<Link to="/remote" className="button button-primary">Go to Remote services</Link>}>
            <p>It may have been removed. Add it again under Remote services to see its tasks.</p>
          </EmptyState>
        </section>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={`Tasks on ${profile}`}
        description={saved ? <>Background tasks at {saved.base_url}, newest first, read through this QR Sandbox server with the profile’s key.</> : undefined}
        back={back}
      />
      <ErrorNotice error={profiles.error} onRetry={profiles.reload} />
      <section className="panel" aria-label="Remote task list">
        {saved && !saved.organization_uuid && <OrganizationForm key={organization} profile={profile} value={organization} onSubmit={(uuid) => setParams({ organization_uuid: uuid, page: null })} />}
        {saved && organization && (
          <div className="toolbar">
            <span className="muted">
              Organization <code>{organization}</code>
            </span>
            <div className="toolbar-end">
              <button type="button" className="button button-small" onClick={reload} disabled={tasks.loading}>
                Refresh
              </button>
            </div>
          </div>
        )}
        {saved && !organization && <p className="muted">The profile names no organization: enter the organization_uuid on that service to list its tasks.</p>}
        <ErrorNotice error={error} onRetry={reload} />
        {!data && tasks.loading && (
          <p className="loading" role="status">
            Asking {profile} for its tasks…
          </p>
        )}
        {data && data.items.length === 0 && !tasks.loading && (
          page > 1 && data.total > 0 ? (
            <EmptyState title={`There is no page ${page}`} action={<button type="button" className="button" onClick={() => setParams({ page: null })}>Go to the first page</button>} />
          ) : (
            <EmptyState title={`No background tasks on ${profile} yet`} action={<Link to="/imports" className="button button-primary">Go to Imports</Link>}>
              <p>Send a file there from the Imports page (“Send to” {profile}); its task appears here.</p>
            </EmptyState>
          )
        )}
        {data && data.items.length > 0 && (
          <div className="table-scroll">
            <table className="table" aria-label={`Background tasks on ${profile}`} aria-busy={tasks.loading}>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Task</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="col-progress">Progress</th>
                  <th scope="col">Results</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((task) => (
                  <TaskRow key={task.uuid} task={task} href={remoteTaskPage(profile, task.uuid)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data && data.total > 0 && <AddressPagination data={data} noun={['task', 'tasks']} setParams={setParams} />}
        {request && <CurlDisclosure request={request} />}
      </section>
    </>
  );
}
