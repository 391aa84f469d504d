import './imports.css';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { UploadFile, UploadProgress } from '../../api/request.ts';
import { useAppMeta } from '../../api/meta.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { ImportHandlerSelect } from '../../components/ImportHandlerSelect.tsx';
import { DestinationField } from '../../components/remote/DestinationField.tsx';
import { type Destination, remoteImportRequest, THIS_SANDBOX } from '../../api/remote-api.ts';
import { RemoteImportResult } from '../../components/remote/RemoteImportResult.tsx';
import { sendRemoteImport } from '../../api/remote-send.ts';
import { FileDropZone, PickFileButton } from '../../components/FilePicker.tsx';
import {
  DEFAULT_IMPORT_HANDLER,
  firstImportKind,
  importKindOf,
  importKinds,
  checkImport,
  dryRun,
  type ImportKindName,
  importRequest,
  type ProcessingMode,
  previewFile,
  previewRequest,
  saveAttachment,
  sendImport,
  templateRequest,
} from '../../api/import-api.ts';
import { CheckResult } from './CheckResult.tsx';
import { ImportResult } from './ImportResult.tsx';
import { FixPreviewRowsButton } from '../../components/import-results/FixPreviewRowsButton.tsx';
import { PreviewPanel } from './PreviewPanel.tsx';
import { KindMismatchNotice } from './KindMismatchNotice.tsx';
import { FixedFilePreviewNote } from './FixedFilePreviewNote.tsx';
import { takeHandedFixedFile } from '../../api/fixed-file-handover.ts';
import { ColumnMappingEditor } from './ColumnMappingEditor.tsx';
import { FileLayoutControls } from './FileLayoutControls.tsx';
import { choiceToSend, type LayoutChoice, layoutFields, NO_CHOICE, openQuestions } from './file-layout.ts';
import { importsReducer, initialImportsState } from './imports-state.ts';
import { Panel } from '../../components/Panel.tsx';
import { Loading } from '../../components/QueryState.tsx';
import { ActionButton } from '../../components/FormActions.tsx';

function TemplateButton({ kind, handler }: { kind: ImportKindName; handler: string }) {
  const template = useApiAction(() => saveAttachment(templateRequest(kind, handler), importKindOf(kind).template_file_name));
  return (
    <span className="template-download">
      <ActionButton action={template} className="button button-small">
        Download the template
      </ActionButton>
      <ErrorNotice error={template.error} onDismiss={template.clearError} />
    </span>
  );
}

export function ImportsPage() {
  const { session } = useSignedIn();
  const org = session.organization_uuid;
  const canImport = session.role !== 'viewer';
  const syncRowCap = useAppMeta()?.sync_row_cap;
  const [state, dispatch] = useReducer(
    importsReducer,
    { kind: firstImportKind(), handler: DEFAULT_IMPORT_HANDLER, destination: THIS_SANDBOX },
    initialImportsState,
  );
  const { kind, mode, handler, file, preview, choice, uploaded, taskUuid, sentFile, checked, destination, remoteAnswer, sent } = state;
  const { otherKindAccepted, fixesTask } = state;
  /** Only kinds that use import handlers (appointments) read one. */
  const usesHandlers = (k: ImportKindName) => importKindOf(k).uses_import_handlers;
  const handlerFor = (k: ImportKindName) => (usesHandlers(k) ? handler : DEFAULT_IMPORT_HANDLER);
  /** The layout fields the check and the import send: what the preview was read with (a saved mapping's columns too). */
  const sentLayout = layoutFields(choiceToSend(choice, preview));
  const remote = destination.profile;
  /** The import call for the chosen destination (its curl is shown; a profile's goes through the local proxy). */
  const uploadRequest = (k: ImportKindName, m: ProcessingMode, name: string, h: string) =>
    remote
      ? remoteImportRequest(remote.name, k, destination.organizationUuid, m, name, h)
      : importRequest(k, org, m, name, h, undefined, sentLayout);
  const onUploadProgress = (progress: UploadProgress) => dispatch({ type: 'uploadProgress', progress });
  const previewing = useApiAction(async (k: ImportKindName, f: UploadFile, h: string, c: LayoutChoice) => {
    dispatch({ type: 'previewStarted' });
    const answer = await previewFile(k, org, f, h, layoutFields(c));
    dispatch({ type: 'previewRead', preview: answer });
    return answer;
  });
  const checking = useApiAction(async (k: ImportKindName, m: ProcessingMode, f: UploadFile, h: string) => {
    dispatch({ type: 'checkStarted', size: f.blob.size });
    try {
      const answer = await checkImport(importRequest(k, org, m, f.name, h, undefined, sentLayout), f, onUploadProgress);
      dispatch({ type: 'checkAnswered', kind: k, fileName: f.name, answer });
      return answer;
    } finally {
      dispatch({ type: 'uploadEnded' });
    }
  });
  const sending = useApiAction(async (k: ImportKindName, m: ProcessingMode, f: UploadFile, h: string, fixesTask?: string) => {
    dispatch({ type: 'sendStarted', kind: k, handler: h, file: f });
    try {
      if (remote) {
        const answer = await sendRemoteImport(remote.name, k, destination.organizationUuid, m, f, onUploadProgress, h);
        dispatch({ type: 'remoteAnswered', profile: remote.name, baseUrl: remote.base_url, answer });
        return answer.uuid;
      }
      const uuid = await sendImport(k, org, m, f, onUploadProgress, h, fixesTask, fixesTask ? {} : sentLayout);
      dispatch({ type: 'taskStarted', uuid });
      return uuid;
    } finally {
      dispatch({ type: 'uploadEnded' });
    }
  });
  const resultRef = useRef<HTMLDivElement>(null);
  const checkRef = useRef<HTMLDivElement>(null);

  const choose = (next: UploadFile) => {
    dispatch({ type: 'fileChosen', file: next });
    sending.clearError();
    checking.clearError();
    void previewing.run(kind, next, handlerFor(kind), NO_CHOICE);
  };
  const changeKind = (next: ImportKindName) => {
    dispatch({ type: 'kindChanged', kind: next });
    if (file) void previewing.run(next, file, handlerFor(next), NO_CHOICE);
  };
  const changeHandler = (next: string) => {
    dispatch({ type: 'handlerChanged', handler: next });
    if (file) void previewing.run(kind, file, next, NO_CHOICE);
  };
  const changeLayout = (next: LayoutChoice) => {
    dispatch({ type: 'layoutChanged', choice: next });
    if (file) void previewing.run(kind, file, handlerFor(kind), next);
  };
  /** A fixed error report is previewed like any file, as the kind and handler of the import it fixes; "Start the import" sends it. */
  const previewFixed = (fixed: UploadFile, k: ImportKindName, h: string, fixes: string | null) => {
    dispatch({ type: 'fixedFileChosen', file: fixed, kind: k, handler: usesHandlers(k) ? h : handler, fixesTask: fixes });
    sending.clearError();
    checking.clearError();
    void previewing.run(k, fixed, h, NO_CHOICE);
    checkRef.current?.scrollIntoView?.({ block: 'start' });
  };
  // Stable, as setState was: DestinationField's effect depends on it.
  const changeDestination = useCallback((next: Destination) => dispatch({ type: 'destinationChanged', destination: next }), []);
  const importFixed = (fixed: UploadFile) => previewFixed(fixed, sent.kind, sent.handler, remote ? null : taskUuid);
  // A fixed file chosen on a task page arrives here to be previewed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: taken once, on arrival
  useEffect(() => {
    const handed = takeHandedFixedFile();
    if (handed) previewFixed(handed.file, handed.kind, handed.handler, handed.fixesTask);
  }, []);
  // A new result scrolls into view from its top (its progress first); after "Start the import", whose button is gone, focus follows it.
  useEffect(() => {
    if (taskUuid || checked || remoteAnswer) resultRef.current?.scrollIntoView?.({ block: 'start' });
    if (taskUuid || remoteAnswer) resultRef.current?.focus({ preventScroll: true });
  }, [taskUuid, checked, remoteAnswer]);

  const missing = preview?.columns.missing_required ?? [];
  const questions = openQuestions(preview, choice);
  const previewFailed = Boolean(previewing.error);
  const noRemoteOrg = remote !== null && destination.organizationUuid === '';
  const busy = sending.running || checking.running;
  const checkBlocked = !file || busy || previewing.running || previewFailed || missing.length > 0 || questions.length > 0 || !canImport;
  const looksLike = preview?.looks_like_kind ?? null;
  const otherKind = looksLike !== null && looksLike !== kind && !otherKindAccepted;
  const blocked = checkBlocked || noRemoteOrg || otherKind;
  const alreadySent = file !== null && file === sentFile && !sending.running && (taskUuid !== null || remoteAnswer !== null);
  const sendLabel = sending.running
    ? 'Sending…'
    : remote
      ? `Send to ${remote.name}${mode === 'sync' ? ' (sync)' : ''}`
      : mode === 'sync'
        ? 'Import now (sync)'
        : 'Start the import';

  const layout = preview && (
    <>
      <FileLayoutControls preview={preview} choice={choice} onChange={changeLayout} />
      {preview.format !== 'json' && (
        <ColumnMappingEditor
          key={JSON.stringify([preview.sheet, preview.header_row, preview.columns.matches])}
          kind={kind}
          organizationUuid={org}
          preview={preview}
          choice={choice}
          canSave={canImport}
          onConfirm={(mapping) => changeLayout({ ...choice, mapping })}
        />
      )}
    </>
  );

  return (
    <>
      <PageHeader
        title="Imports"
        description="Import a CSV, Excel (.xlsx, .xls), OpenDocument (.ods) or JSON file of any kind below. The columns and first rows are checked before anything is sent."
      />
      {!canImport && (
        <p className="notice notice-info">
          Your key is a viewer key: it can preview files but not import them. Ask an admin for an editor key.
        </p>
      )}
      <Panel title="1. What and which file">
        <fieldset className="fieldset">
          <legend className="field-label">Import</legend>
          <div className="radio-row">
            {importKinds().map(({ id: k, label }) => (
              <label key={k} className="checkbox">
                <input type="radio" name="import-kind" value={k} checked={kind === k} onChange={() => changeKind(k)} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {usesHandlers(kind) && <ImportHandlerSelect organizationUuid={org} value={handler} onChange={changeHandler} />}
        <FileDropZone file={file} onFile={choose} />
        <div className="toolbar">
          <span className="muted">Not sure of the columns? Start from the template: the columns in order and one example row.</span>
          <TemplateButton kind={kind} handler={handlerFor(kind)} />
        </div>
      </Panel>

      <div ref={checkRef} />
      {file && (
        <Panel title="2. Check before sending">
          {fixesTask && <FixedFilePreviewNote fileName={file.name} />}
          {looksLike !== null && looksLike !== kind && (
            <KindMismatchNotice
              kind={kind}
              looksLike={looksLike}
              accepted={otherKindAccepted}
              onSwitch={() => changeKind(looksLike)}
              onAccept={(accepted) => dispatch({ type: 'otherKindAccepted', accepted })}
            />
          )}
          {previewing.running && <Loading>Reading the first rows…</Loading>}
          <ErrorNotice error={previewing.error} onRetry={() => void previewing.run(kind, file, handlerFor(kind), choice)} />
          {preview && (
            <PreviewPanel preview={preview} templateLink={<TemplateButton kind={kind} handler={handlerFor(kind)} />} layout={layout} />
          )}
          {preview && canImport && <FixPreviewRowsButton kind={kind} preview={preview} />}
          <CurlDisclosure
            request={previewRequest(kind, org, file.name, handlerFor(kind), layoutFields(choice))}
            label="Show curl for the preview"
          />
        </Panel>
      )}

      {file && (
        <Panel title="3. Send">
          <DestinationField value={destination} onChange={changeDestination} sandboxOrganization={session.organization_name} />
          <fieldset className="fieldset">
            <legend className="field-label">Processing</legend>
            <div className="radio-stack">
              <label className="checkbox">
                <input
                  type="radio"
                  name="processing-mode"
                  value="background"
                  checked={mode === 'background'}
                  onChange={() => dispatch({ type: 'modeChanged', mode: 'background' })}
                />
                <span>
                  <strong>Background</strong>{' '}
                  <span className="field-hint">— any size; the server answers at once and the progress shows here live.</span>
                </span>
              </label>
              <label className="checkbox">
                <input
                  type="radio"
                  name="processing-mode"
                  value="sync"
                  checked={mode === 'sync'}
                  onChange={() => dispatch({ type: 'modeChanged', mode: 'sync' })}
                />
                <span>
                  <strong>Sync</strong>{' '}
                  <span className="field-hint">
                    — the server answers with the results when the import is done; at most {syncRowCap?.toLocaleString() ?? '…'} rows (a
                    bigger file is refused: use background).
                  </span>
                </span>
              </label>
            </div>
          </fieldset>
          {usesHandlers(kind) && (
            <p className="field-hint">
              Import handler: <strong>{handler}</strong> (chosen under “1. What and which file”).
            </p>
          )}
          {missing.length > 0 && <p className="field-problem">Add the missing {missing.join(', ')} column first (see the check above).</p>}
          {questions.length > 0 && (
            <p className="field-problem">
              Say what the column{questions.length > 1 ? 's' : ''} {questions.map((q) => `“${q.header}”`).join(', ')} hold
              {questions.length > 1 ? '' : 's'} first (under “Columns of the file” above).
            </p>
          )}
          {previewFailed && (
            <p className="field-problem">The file could not be checked (see the problem above): fix it or choose another file first.</p>
          )}
          {noRemoteOrg && <p className="field-problem">Enter the organization_uuid to import into on {remote.name} first.</p>}
          {otherKind && (
            <p className="field-problem">
              The file looks like {importKindOf(looksLike).file_noun}: switch the import, or confirm the kind, under “2. Check before
              sending” first.
            </p>
          )}
          {alreadySent ? (
            <div className="notice notice-success sent-notice">
              <p role="status">
                <strong>{file.name}</strong> was sent{remoteAnswer ? ` to ${remoteAnswer.profile}` : ''}: its result is below. To send the
                same file again on purpose, choose it again.
              </p>
              <div className="form-actions">
                <PickFileButton label="Import another file" onFile={choose} className="button button-primary" />
              </div>
            </div>
          ) : (
            <div className="form-actions">
              {/* Not disabled while it runs, so focus stays on it and the next Tab reaches the import button. */}
              <button
                type="button"
                className="button"
                disabled={checkBlocked && !checking.running}
                aria-disabled={checking.running}
                onClick={() => {
                  if (!checking.running) void checking.run(kind, mode, file, handlerFor(kind));
                }}
              >
                {checking.running ? 'Checking…' : remote ? 'Check only (on this sandbox)' : 'Check only'}
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={blocked}
                onClick={() => void sending.run(kind, mode, file, handlerFor(kind), fixesTask ?? undefined)}
              >
                {sendLabel}
              </button>
            </div>
          )}
          {!alreadySent && (
            <p className="field-hint">
              “Check only” runs the whole import on this sandbox without writing anything: every row is checked and you see what the import
              would give here.
            </p>
          )}
          {uploaded && uploaded.total > 0 && (
            <div role="status" aria-label="Upload">
              <ProgressBar value={(uploaded.loaded / uploaded.total) * 100} label="Upload progress" />
              {uploaded.loaded >= uploaded.total && checking.running && (
                <p className="muted">Uploaded; the server is checking every row (nothing is written)…</p>
              )}
              {uploaded.loaded >= uploaded.total && sending.running && mode === 'sync' && (
                <p className="muted">Uploaded; the server is importing the rows…</p>
              )}
            </div>
          )}
          <ErrorNotice error={checking.error} onDismiss={checking.clearError} />
          <ErrorNotice error={sending.error} onDismiss={sending.clearError} />
          <CurlDisclosure
            request={dryRun(importRequest(kind, org, mode, file.name, handlerFor(kind), undefined, sentLayout))}
            label="Show curl for the check"
          />
          <CurlDisclosure
            request={uploadRequest(kind, mode, file.name, handlerFor(kind))}
            label={remote ? `Show curl for the import (through this server to ${remote.name})` : 'Show curl for the import'}
          />
        </Panel>
      )}

      <div ref={resultRef} tabIndex={-1} className="import-result-anchor">
        {checked && (
          <CheckResult
            kind={checked.kind}
            fileName={checked.fileName}
            answer={checked.answer}
            {...(preview
              ? { file: { columns: preview.columns.matched, sheet: (preview.sheets?.length ?? 0) > 1 ? (preview.sheet ?? null) : null } }
              : {})}
          />
        )}
        {remoteAnswer && (
          <RemoteImportResult
            profile={remoteAnswer.profile}
            baseUrl={remoteAnswer.baseUrl}
            answer={remoteAnswer.answer}
            {...(remote?.name === remoteAnswer.profile
              ? {
                  onFixedFile: importFixed,
                  fixing: sending.running,
                  fixRequest: uploadRequest(sent.kind, mode, 'fixed-error-report.csv', sent.handler),
                }
              : {})}
          />
        )}
        {taskUuid && !remoteAnswer && (
          <ImportResult
            key={taskUuid}
            uuid={taskUuid}
            {...(remote
              ? {}
              : {
                  onFixedFile: importFixed,
                  fixing: sending.running,
                  fixRequest: importRequest(sent.kind, org, mode, 'fixed-error-report.csv', sent.handler, taskUuid),
                })}
          />
        )}
      </div>
    </>
  );
}
