import type { UploadFile } from '../../renderer/src/api/request.ts';
import type { ImportPreview } from '../../renderer/src/api/types.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Destination } from '../../renderer/src/api/remote-api.ts';
import {
  type ImportsAction,
  type ImportsState,
  importsReducer,
  initialImportsState,
} from '../../renderer/src/pages/imports/imports-state.ts';

const HERE: Destination = { profile: null, organizationUuid: '' };
const file = (name: string, bytes = 'a,b\n1,2\n'): UploadFile => ({ name, blob: new Blob([bytes]) });
const preview = { format: 'csv' } as unknown as ImportPreview;
const start = () => initialImportsState({ kind: 'qrcodes', handler: 'default', destination: HERE });
const run = (state: ImportsState, ...actions: ImportsAction[]) => actions.reduce(importsReducer, state);

/** A page where a file was previewed with a layout choice, checked, sent here, and its result is shown. */
function afterAnImport(): ImportsState {
  const sent = file('sites.csv');
  return run(
    start(),
    { type: 'fileChosen', file: sent },
    { type: 'previewRead', preview },
    { type: 'layoutChanged', choice: { headerRow: 2 } },
    { type: 'otherKindAccepted', accepted: true },
    { type: 'checkStarted', size: 8 },
    { type: 'checkAnswered', kind: 'qrcodes', fileName: 'sites.csv', answer: { dry_run: true } },
    { type: 'sendStarted', kind: 'qrcodes', handler: 'default', file: sent },
    { type: 'taskStarted', uuid: 'task-1' },
    { type: 'uploadEnded' },
  );
}

describe('the Imports page state', () => {
  it('starts with the given kind, handler and destination, in the background, with nothing chosen or shown', () => {
    assert.deepEqual(start(), {
      kind: 'qrcodes',
      mode: 'background',
      handler: 'default',
      file: null,
      preview: null,
      choice: {},
      uploaded: null,
      taskUuid: null,
      sentFile: null,
      checked: null,
      destination: HERE,
      remoteAnswer: null,
      sent: { kind: 'qrcodes', handler: 'default' },
      otherKindAccepted: false,
      fixesTask: null,
    });
  });

  it('a new file clears the result, the check, the layout choice and the kind accepted, and keeps what was chosen above it', () => {
    const before = run(afterAnImport(), { type: 'modeChanged', mode: 'sync' });
    const next = file('more.csv');
    const after = run(before, { type: 'fileChosen', file: next });
    assert.equal(after.file, next);
    assert.equal(after.taskUuid, null);
    assert.equal(after.checked, null);
    assert.equal(after.remoteAnswer, null);
    assert.deepEqual(after.choice, {});
    assert.equal(after.otherKindAccepted, false);
    assert.equal(after.fixesTask, null);
    assert.equal(after.mode, 'sync');
    assert.deepEqual(after.sent, { kind: 'qrcodes', handler: 'default' });
    assert.equal(after.sentFile, before.sentFile, 'the file last sent is still known, so the same file is not offered again by accident');
  });

  it('a fixed error report takes the kind and handler of the import it fixes and keeps that import shown', () => {
    const fixed = file('errors.csv');
    const after = run(afterAnImport(), {
      type: 'fixedFileChosen',
      file: fixed,
      kind: 'appointments',
      handler: 'acme',
      fixesTask: 'task-1',
    });
    assert.equal(after.file, fixed);
    assert.equal(after.kind, 'appointments');
    assert.equal(after.handler, 'acme');
    assert.equal(after.fixesTask, 'task-1');
    assert.equal(after.taskUuid, 'task-1');
    assert.equal(after.checked, null);
    assert.deepEqual(after.choice, {});
    assert.equal(after.otherKindAccepted, false);
  });

  it('another kind forgets the layout choice and the kind accepted; another handler forgets the layout choice only', () => {
    const before = afterAnImport();
    const kind = run(before, { type: 'kindChanged', kind: 'appointments' });
    assert.equal(kind.kind, 'appointments');
    assert.deepEqual(kind.choice, {});
    assert.equal(kind.otherKindAccepted, false);
    assert.equal(kind.taskUuid, 'task-1', 'the shown result stays');
    const handler = run(before, { type: 'handlerChanged', handler: 'acme' });
    assert.equal(handler.handler, 'acme');
    assert.deepEqual(handler.choice, {});
    assert.equal(handler.otherKindAccepted, true);
  });

  it('a check clears the shown import and check, counts the upload from zero, and leaves a remote answer', () => {
    const remote = run(start(), {
      type: 'remoteAnswered',
      profile: 'staging',
      baseUrl: 'https://staging.example',
      answer: { kind: 'task', uuid: 'r-1' },
    });
    const checking = run(remote, { type: 'checkStarted', size: 120 });
    assert.deepEqual(checking.uploaded, { loaded: 0, total: 120 });
    assert.equal(checking.taskUuid, null);
    assert.equal(checking.checked, null);
    assert.deepEqual(checking.remoteAnswer, remote.remoteAnswer);
    const progressed = run(checking, { type: 'uploadProgress', progress: { loaded: 60, total: 120 } });
    assert.deepEqual(progressed.uploaded, { loaded: 60, total: 120 });
    const answered = run(
      progressed,
      { type: 'checkAnswered', kind: 'qrcodes', fileName: 'a.csv', answer: { dry_run: true } },
      { type: 'uploadEnded' },
    );
    assert.deepEqual(answered.checked, { kind: 'qrcodes', fileName: 'a.csv', answer: { dry_run: true } });
    assert.equal(answered.uploaded, null);
  });

  it('sending records what was sent, for the fixed file to go back the same way, and clears every earlier result', () => {
    const before = run(afterAnImport(), {
      type: 'remoteAnswered',
      profile: 'staging',
      baseUrl: 'https://staging.example',
      answer: { kind: 'task', uuid: 'r-1' },
    });
    const next = file('visits.csv', 'x'.repeat(50));
    const sending = run(before, { type: 'sendStarted', kind: 'appointments', handler: 'acme', file: next });
    assert.deepEqual(sending.sent, { kind: 'appointments', handler: 'acme' });
    assert.equal(sending.sentFile, next);
    assert.deepEqual(sending.uploaded, { loaded: 0, total: 50 });
    assert.equal(sending.taskUuid, null);
    assert.equal(sending.checked, null);
    assert.equal(sending.remoteAnswer, null);
    const remote = run(sending, {
      type: 'remoteAnswered',
      profile: 'staging',
      baseUrl: 'https://staging.example',
      answer: { kind: 'task', uuid: 'r-2' },
    });
    assert.deepEqual(remote.remoteAnswer, {
      profile: 'staging',
      baseUrl: 'https://staging.example',
      answer: { kind: 'task', uuid: 'r-2' },
    });
    assert.equal(run(sending, { type: 'taskStarted', uuid: 'task-2' }).taskUuid, 'task-2');
  });

  it('a preview being read replaces the one shown; mode, destination and layout are set as chosen', () => {
    const reading = run(afterAnImport(), { type: 'previewStarted' });
    assert.equal(reading.preview, null);
    assert.equal(run(reading, { type: 'previewRead', preview }).preview, preview);
    const destination: Destination = { profile: null, organizationUuid: 'org-2' };
    const chosen = run(
      start(),
      { type: 'modeChanged', mode: 'sync' },
      { type: 'destinationChanged', destination },
      { type: 'layoutChanged', choice: { sheet: 'B' } },
    );
    assert.equal(chosen.mode, 'sync');
    assert.equal(chosen.destination, destination);
    assert.deepEqual(chosen.choice, { sheet: 'B' });
  });
});
