import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
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
  api.route(
    {
      method: 'post',
      path: base,
      tag,
      summary: "Open an import's excluded rows (or a preview's rows) as a draft to fix in place.",
      description:
        'With background_task_uuid: the excluded rows of that finished import (either kind), each with its problem; the open draft of that import when it has one (200). ' +
        "With kind and rows: those rows (e.g. a preview's rows with problems), checked at once with the import's own checks. " +
        'Every row has every column of the kind. The draft is kept on the server until it is imported or discarded.',
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
      inDraftQueue(params.draft_uuid, async () => {
        const draft = await requireDraft(ctx, principal, params.draft_uuid);
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
    ({ params, query, principal }) =>
      inDraftQueue(params.draft_uuid, async () => rowsPage(ctx, await requireDraft(ctx, principal, params.draft_uuid), query)),
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
      inDraftQueue(params.draft_uuid, async () =>
        editCell(ctx, await requireDraft(ctx, principal, params.draft_uuid), params.row_id, body.column, body.value),
      ),
  );
  api.route(
    {
      method: 'post',
      path: `${item}/replace`,
      tag,
      summary: 'Find and replace in one column over every row of the draft, as one edit.',
      description: `The changed rows are checked again, the first ${1000} at once; the import checks the rest (checked=false).`,
      params: draftParamsSchema,
      body: replaceBodySchema,
      response: changeAnswerSchema,
      errors: [404, 409],
    },
    ({ params, body, principal }) =>
      inDraftQueue(params.draft_uuid, async () => replaceInColumn(ctx, await requireDraft(ctx, principal, params.draft_uuid), body)),
  );
  api.route(
    {
      method: 'post',
      path: `${item}/fill-down`,
      tag,
      summary: "Copy a row's cell into the rows under it, up to another row, as one edit.",
      params: draftParamsSchema,
      body: fillDownBodySchema,
      response: changeAnswerSchema,
      errors: [404, 409],
    },
    ({ params, body, principal }) =>
      inDraftQueue(params.draft_uuid, async () => fillDown(ctx, await requireDraft(ctx, principal, params.draft_uuid), body)),
  );
  api.route(
    {
      method: 'post',
      path: `${item}/delete-rows`,
      tag,
      summary: 'Take rows out of the draft: they are not imported (undo brings them back).',
      params: draftParamsSchema,
      body: deleteRowsBodySchema,
      response: changeAnswerSchema,
      errors: [404, 409],
    },
    ({ params, body, principal }) =>
      inDraftQueue(params.draft_uuid, async () => deleteRows(ctx, await requireDraft(ctx, principal, params.draft_uuid), body.row_ids)),
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
    ({ params, principal }) =>
      inDraftQueue(params.draft_uuid, async () => undoLastEdit(ctx, await requireDraft(ctx, principal, params.draft_uuid))),
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
      inDraftQueue(params.draft_uuid, async () => {
        await discardDraft(ctx, await requireDraft(ctx, principal, params.draft_uuid));
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
      inDraftQueue(params.draft_uuid, async () => {
        const draft = await requireDraft(ctx, principal, params.draft_uuid);
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
      const task = await inDraftQueue(params.draft_uuid, async () =>
        importFixedRows(ctx, principal, await requireDraft(ctx, principal, params.draft_uuid)),
      );
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
