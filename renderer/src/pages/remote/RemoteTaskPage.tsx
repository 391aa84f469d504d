import '../../components/remote/remote.css';
import { useQuery } from '@tanstack/react-query';
import type { UploadFile } from '../../api/request.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { Link, navigate } from '../../router.tsx';
import { importKindOf, taskImportKind } from '../../api/import-api.ts';
import { TaskMetadata } from '../../components/TaskMetadata.tsx';
import { fileName, taskTypeLabel } from '../../api/task-format.ts';
import { remoteImportRequest, remoteTaskPage, remoteTasksPage } from '../../api/remote-api.ts';
import { profilesQuery } from '../../api/profiles-query.ts';
import { sendRemoteImport } from '../../api/remote-send.ts';
import { RemoteTaskResult } from '../../components/remote/RemoteTaskResult.tsx';
import { useRemoteTask } from '../../api/use-remote-task.ts';
import { Panel } from '../../components/Panel.tsx';

/** A background task on a profile's service, followed until it ends (reachable by its address, so a reload keeps it). */
export function RemoteTaskPage({ profile, uuid }: { profile: string; uuid: string }) {
  const profiles = useQuery(profilesQuery);
  const baseUrl = profiles.data?.items.find((p) => p.name === profile)?.base_url;
  const watch = useRemoteTask(profile, uuid);
  const task = watch.task;
  const found = task ? taskImportKind(task) : null;
  // A fixed file goes back as the task's kind; a kind read through an import handler is not, since the remote task does not say which.
  const kind = found !== null && !importKindOf(found).uses_import_handlers ? found : null;
  const fix = useApiAction(async (file: UploadFile) => {
    if (!task || kind === null) return;
    const answer = await sendRemoteImport(profile, kind, task.organization_uuid, 'background', file, () => undefined);
    if (answer.uuid) navigate(remoteTaskPage(profile, answer.uuid));
  });
  const back = <Link to={remoteTasksPage(profile)}>← Tasks on {profile}</Link>;
  const where = baseUrl ? `${profile} (${baseUrl})` : profile;

  return (
    <>
      <PageHeader
        title={task ? `${taskTypeLabel(task.task_type)} on ${profile}` : `Task on ${profile}`}
        description={
          <>
            {task && fileName(task) ? `${fileName(task)} · ` : ''}Task {uuid} at {where}
          </>
        }
        back={back}
        {...(task ? { actions: <StatusBadge task={task} /> } : {})}
      />
      <RemoteTaskResult
        profile={profile}
        baseUrl={baseUrl}
        watch={watch}
        {...(task && kind !== null
          ? {
              onFixedFile: (file: UploadFile) => void fix.run(file),
              fixing: fix.running,
              fixRequest: remoteImportRequest(profile, kind, task.organization_uuid, 'background', 'fixed-error-report.csv'),
            }
          : {})}
      />
      <ErrorNotice error={fix.error} onDismiss={fix.clearError} />
      <Panel title="Details">
        {task ? <TaskMetadata task={task} /> : <p className="muted">The task’s details appear once {profile} answers.</p>}
        <CurlDisclosure request={watch.request} label="Show curl (through this server)" />
      </Panel>
    </>
  );
}
