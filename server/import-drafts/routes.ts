import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api, Out } from '../http/api.ts';
import { loadKind } from '../imports/kinds.ts';
import { taskAcceptedSchema } from '../tasks/schemas.ts';
import {
  createDraft,
  deleteRows,
  describeDraft,
  discardDraft,
  editCell,
  fillDown,
  importFixedRows,
  listDrafts,
  replaceInColumn,
  requireDraft,
  rowsPage,
  undoLastEdit,
  warmChecks,
} from './drafts.ts';
import { sendFixedRows } from './download.ts';
import { inDraftQueue } from './draft-queue.ts';
import type { DraftRecord } from './store.ts';
import {
  changeAnswerSchema,
  createDraftBodySchema,
  deleteRowsBodySchema,
  downloadQuerySchema,
  draftListQuerySchema,
  draftListSchema,
  draftParamsSchema,
  draftRowParamsSchema,
  draftRowsPageSchema,
  draftRowsQuerySchema,
  draftSchema,
  editCellAnswerSchema,
  editCellBodySchema,
  fillDownBodySchema,
  replaceBodySchema,
} from './schemas.ts';

const tag = 'Import drafts';
const base = '/api/import-drafts';
const item = `${base}/uuid/{draft_uuid}`;

/** Import drafts: an import's excluded rows fixed in place and imported again. */
export function registerImportDraftRoutes(api: Api, ctx: AppContext): void {
  /** Runs `work` on the caller's draft, after the draft's earlier requests (one at a time per draft). */
  const withDraft = <T>(principal: Principal, draftUuid: string, work: (draft: DraftRecord) => T | Promise<T>) =>
    inDraftQueue(draftUuid, async () => work(await requireDraft(ctx, principal, draftUuid)));

  /** An edit of many rows (POST item/NAME), made as one edit that undo takes back whole. */
  const bulkEdit = <B extends z.ZodType>(
    name: string,
    doc: { summary: string; description?: string; body: B },
    apply: (draft: DraftRecord, body: Out<B>) => unknown,
  ) =>
    api.route(
      { method: 'post', path: `${item}/${name}`, tag, ...doc, params: draftParamsSchema, response: changeAnswerSchema, errors: [404, 409] },
      async ({ params, body, principal }) => withDraft(principal, params.draft_uuid, (draft) => apply(draft, body)),
    );

  api.route(
    {
      method: 'post',
      path: base,
      tag,
      summary: "Open an import's excluded rows (or a preview's rows) as a draft to fix in place.",
      description:
        'With background_task_uuid: the excluded rows of that finished import (either kind), each with its problem; the open draft of that import when it has one (200). ' +
        "With kind and rows: those rows (e.g. a preview's rows with problems), checked at once with the import's own checks. " +
        'Every row has every column of the kind. The draft is kept on the server until it is imported or discarded. ' +
        'An organization keeps at most 100 drafts (serve --max-drafts): past it, a 400.',
      body: createDraftBodySchema,
      status: 201,
      response: draftSchema,
      responses: { 200: { description: 'The import already had an open draft: that one', schema: draftSchema } },
      errors: [404, 409],
    },
    async ({ body, principal, res }) => {
      // Two requests for one import's draft one after the other: the second finds the first's draft.
      const open = () => createDraft(ctx, principal, body);
      const { draft, created } = await ('background_task_uuid' in body ? inDraftQueue(`task:${body.background_task_uuid}`, open) : open());
      if (!created) res.status(200).json(draft);
      return draft;
    },
  );
  api.route(
    {
      method: 'get',
      path: base,
      tag,
      summary: "The organization's open import drafts.",
      query: draftListQuerySchema,
      response: draftListSchema,
    },
    ({ query, principal }) => listDrafts(ctx, principal, query.background_task_uuid),
  );
  api.route(
    {
      method: 'get',
      path: item,
      tag,
      summary: 'One import draft: its columns, how many rows still have problems, the import of its fixed rows.',
      params: draftParamsSchema,
      response: draftSchema,
      errors: [404],
    },
    ({ params, principal }) =>
      withDraft(principal, params.draft_uuid, (draft) => {
        warmChecks(ctx, draft);
        return describeDraft(ctx, draft);
      }),
  );
  api.route(
    {
      method: 'get',
      path: `${item}/rows`,
      tag,
      summary: "A page of the draft's rows in row order, each with its problem and the column it is about.",
      description: 'problems_only=true keeps the rows the import would exclude; search keeps rows with that text in a cell.',
      params: draftParamsSchema,
      query: draftRowsQuerySchema,
      response: draftRowsPageSchema,
      errors: [404],
    },
    ({ params, query, principal }) => withDraft(principal, params.draft_uuid, (draft) => rowsPage(ctx, draft, query)),
  );
  api.route(
    {
      method: 'patch',
      path: `${item}/rows/{row_id}`,
      tag,
      summary: "Change one cell: the row is checked again with the import's own checks, and the answer is its new verdict.",
      params: draftRowParamsSchema,
      body: editCellBodySchema,
      response: editCellAnswerSchema,
      errors: [404, 409],
    },
    ({ params, body, principal }) =>
      withDraft(principal, params.draft_uuid, (draft) => editCell(ctx, draft, params.row_id, body.column, body.value)),
  );
  bulkEdit(
    'replace',
    {
      summary: 'Find and replace in one column over every row of the draft, as one edit.',
      description:
        `The changed rows are checked again, the first ${1000} at once; the import checks the rest (checked=false). ` +
        "Measured over every row before any is written: a 400, nothing changed, when a cell would be longer than its column takes or the change would add more than the server's limit of text (serve --max-draft-change-mb, default 16 MB).",
      body: replaceBodySchema,
    },
    (draft, body) => replaceInColumn(ctx, draft, body),
  );
  bulkEdit(
    'fill-down',
    { summary: "Copy a row's cell into the rows under it, up to another row, as one edit.", body: fillDownBodySchema },
    (draft, body) => fillDown(ctx, draft, body),
  );
  bulkEdit(
    'delete-rows',
    { summary: 'Take rows out of the draft: they are not imported (undo brings them back).', body: deleteRowsBodySchema },
    (draft, body) => deleteRows(ctx, draft, body.row_ids),
  );
  api.route(
    {
      method: 'post',
      path: `${item}/undo`,
      tag,
      summary: 'Undo the last edit (a cell, a replace, a fill down or a delete); again for the one before.',
      params: draftParamsSchema,
      response: changeAnswerSchema,
      errors: [404, 409],
    },
    ({ params, principal }) => withDraft(principal, params.draft_uuid, (draft) => undoLastEdit(ctx, draft)),
  );
  api.route(
    {
      method: 'delete',
      path: item,
      tag,
      summary: 'Discard the draft and its edits (the import it came from is not changed).',
      params: draftParamsSchema,
      status: 204,
      errors: [404, 409],
    },
    ({ params, principal }) =>
      withDraft(principal, params.draft_uuid, async (draft) => {
        await discardDraft(ctx, draft);
      }),
  );
  api.route(
    {
      method: 'get',
      path: `${item}/download`,
      tag,
      summary: "The draft's rows not yet imported, with the fixes, as CSV or XLSX of the kind's columns.",
      params: draftParamsSchema,
      query: downloadQuerySchema,
      responseContent: {
        'text/csv': 'The fixed rows',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'The fixed rows',
      },
      errors: [404],
    },
    ({ params, query, principal, res }) =>
      withDraft(principal, params.draft_uuid, async (draft) => {
        const kind = await loadKind(draft.kind);
        await sendFixedRows(res, ctx, draft, kind.columns, query.format);
      }),
  );
  api.route(
    {
      method: 'post',
      path: `${item}/import`,
      tag,
      summary: "Import the fixed rows: the kind's own import (background) of the draft's open rows alone.",
      description:
        "The new task's metadata has fixes_task_uuid (the import the rows came from) and import_draft_uuid. When it ends, the draft " +
        'shows what became of each row: imported, or open again with its new problem.',
      params: draftParamsSchema,
      status: 202,
      response: taskAcceptedSchema,
      errors: [404, 409],
    },
    async ({ params, principal, res }) => {
      const task = await withDraft(principal, params.draft_uuid, (draft) => importFixedRows(ctx, principal, draft));
      res.setHeader('X-Background-Task-Uuid', task.uuid);
      return {
        message: 'The import of the fixed rows started.',
        task_id: task.task_id,
        background_task_uuid: task.uuid,
        status: 'processing',
      };
    },
  );
}
