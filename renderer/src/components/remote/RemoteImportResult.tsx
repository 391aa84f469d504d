import type { ApiRequest, UploadFile } from '../../api/request.ts';
import type { RemoteImportAnswer } from '../../api/remote-api.ts';
import { RemoteSyncAnswer, RemoteTaskResult } from './RemoteTaskResult.tsx';
import { useRemoteTask } from '../../api/use-remote-task.ts';

interface FixedFile {
  onFixedFile?: (file: UploadFile) => void;
  fixing?: boolean;
  fixRequest?: ApiRequest;
}

function WatchedTask({ profile, baseUrl, uuid, ...fixed }: { profile: string; baseUrl: string | undefined; uuid: string } & FixedFile) {
  const watch = useRemoteTask(profile, uuid);
  return <RemoteTaskResult profile={profile} baseUrl={baseUrl} watch={watch} title {...fixed} />;
}

/** What a profile's service answered to an import sent from the Imports page. */
export function RemoteImportResult({
  profile,
  baseUrl,
  answer,
  ...fixed
}: { profile: string; baseUrl: string | undefined; answer: RemoteImportAnswer } & FixedFile) {
  if (answer.kind === 'sync' && answer.uuid === null) return <RemoteSyncAnswer profile={profile} body={answer.body} />;
  const uuid = answer.kind === 'task' ? answer.uuid : (answer.uuid ?? '');
  return <WatchedTask key={uuid} profile={profile} baseUrl={baseUrl} uuid={uuid} {...fixed} />;
}
