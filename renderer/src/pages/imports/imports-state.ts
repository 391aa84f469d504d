/** The Imports page's state: what is chosen, the file and its preview, the upload, and the result shown. */

import type { UploadFile, UploadProgress } from '../../api/request.ts';
import type { CheckAnswer, ImportPreview } from '../../api/types.ts';
import type { ImportKindName, ProcessingMode } from '../../api/import-form.ts';
import type { Destination, RemoteImportAnswer } from '../../api/remote-api.ts';
import { type LayoutChoice, NO_CHOICE } from './file-layout.ts';

export interface ImportsState {
  kind: ImportKindName;
  mode: ProcessingMode;
  /** The import handler chosen (for the kinds that read one). */
  handler: string;
  file: UploadFile | null;
  preview: ImportPreview | null;
  /** The sheet, header row, columns and date orders the user chose for this file (sent with the preview, the check and the import). */
  choice: LayoutChoice;
  uploaded: UploadProgress | null;
  /** The import task started here, whose result is shown. */
  taskUuid: string | null;
  /** The file last sent: once its import has a result, it is not offered for sending again by accident. */
  sentFile: UploadFile | null;
  checked: { kind: ImportKindName; fileName: string; answer: CheckAnswer } | null;
  destination: Destination;
  remoteAnswer: { profile: string; baseUrl: string; answer: RemoteImportAnswer } | null;
  /** What the shown import was sent as: its fixed file goes back the same way, whatever is chosen above since. */
  sent: { kind: ImportKindName; handler: string };
  /** The user said the file is of the chosen kind although its columns look like another's (KindMismatchNotice). */
  otherKindAccepted: boolean;
  /** The import whose fixed error report is the chosen file: it is previewed first, then sent with fixes_task_uuid. */
  fixesTask: string | null;
}

export type ImportsAction =
  | { type: 'fileChosen'; file: UploadFile }
  /** A fixed error report, previewed as the kind and handler of the import it fixes. */
  | { type: 'fixedFileChosen'; file: UploadFile; kind: ImportKindName; handler: string; fixesTask: string | null }
  | { type: 'kindChanged'; kind: ImportKindName }
  | { type: 'handlerChanged'; handler: string }
  | { type: 'layoutChanged'; choice: LayoutChoice }
  | { type: 'modeChanged'; mode: ProcessingMode }
  | { type: 'destinationChanged'; destination: Destination }
  | { type: 'otherKindAccepted'; accepted: boolean }
  | { type: 'previewStarted' }
  | { type: 'previewRead'; preview: ImportPreview }
  | { type: 'checkStarted'; size: number }
  | { type: 'checkAnswered'; kind: ImportKindName; fileName: string; answer: CheckAnswer }
  | { type: 'sendStarted'; kind: ImportKindName; handler: string; file: UploadFile }
  | { type: 'remoteAnswered'; profile: string; baseUrl: string; answer: RemoteImportAnswer }
  | { type: 'taskStarted'; uuid: string }
  | { type: 'uploadProgress'; progress: UploadProgress }
  | { type: 'uploadEnded' };

export function initialImportsState({
  kind,
  handler,
  destination,
}: {
  kind: ImportKindName;
  handler: string;
  destination: Destination;
}): ImportsState {
  return {
    kind,
    mode: 'background',
    handler,
    file: null,
    preview: null,
    choice: NO_CHOICE,
    uploaded: null,
    taskUuid: null,
    sentFile: null,
    checked: null,
    destination,
    remoteAnswer: null,
    sent: { kind, handler },
    otherKindAccepted: false,
    fixesTask: null,
  };
}

export function importsReducer(state: ImportsState, action: ImportsAction): ImportsState {
  switch (action.type) {
    case 'fileChosen':
      return {
        ...state,
        file: action.file,
        otherKindAccepted: false,
        fixesTask: null,
        taskUuid: null,
        checked: null,
        remoteAnswer: null,
        choice: NO_CHOICE,
      };
    case 'fixedFileChosen':
      return {
        ...state,
        file: action.file,
        kind: action.kind,
        handler: action.handler,
        otherKindAccepted: false,
        fixesTask: action.fixesTask,
        checked: null,
        choice: NO_CHOICE,
      };
    case 'kindChanged':
      return { ...state, kind: action.kind, otherKindAccepted: false, choice: NO_CHOICE };
    case 'handlerChanged':
      return { ...state, handler: action.handler, choice: NO_CHOICE };
    case 'layoutChanged':
      return { ...state, choice: action.choice };
    case 'modeChanged':
      return { ...state, mode: action.mode };
    case 'destinationChanged':
      return { ...state, destination: action.destination };
    case 'otherKindAccepted':
      return { ...state, otherKindAccepted: action.accepted };
    case 'previewStarted':
      return { ...state, preview: null };
    case 'previewRead':
      return { ...state, preview: action.preview };
    case 'checkStarted':
      return { ...state, taskUuid: null, checked: null, uploaded: { loaded: 0, total: action.size } };
    case 'checkAnswered':
      return { ...state, checked: { kind: action.kind, fileName: action.fileName, answer: action.answer } };
    case 'sendStarted':
      return {
        ...state,
        taskUuid: null,
        checked: null,
        remoteAnswer: null,
        sent: { kind: action.kind, handler: action.handler },
        sentFile: action.file,
        uploaded: { loaded: 0, total: action.file.blob.size },
      };
    case 'remoteAnswered':
      return { ...state, remoteAnswer: { profile: action.profile, baseUrl: action.baseUrl, answer: action.answer } };
    case 'taskStarted':
      return { ...state, taskUuid: action.uuid };
    case 'uploadProgress':
      return { ...state, uploaded: action.progress };
    case 'uploadEnded':
      return { ...state, uploaded: null };
  }
}
