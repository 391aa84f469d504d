import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { z } from 'zod';
import { importCommand } from '../../server/cli/import.ts';
import { importKinds } from '../../server/imports/kinds.ts';
import { taskTypes } from '../../server/tasks/schemas.ts';
import { startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody, type TestServer } from '../support/server.ts';

/**
 * Every kind of the registry, in every place a kind needs to be: a new kind missing from one
 * fails here, by name. The kind's own behaviour is tested in its folder's tests.
 */
describe('every import kind of the registry is complete', () => {
  let server: TestServer;
  let openapi: {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, { discriminator?: { mapping: Record<string, string> } }> };
  };
  let meta: {
    import_kinds: string[];
    kinds: {
      id: string;
      label: string;
      file_noun: string;
      in_a_sentence: string;
      upload_path: string;
      records_gui_path: string;
      tasks: {
        type: string;
        label: string;
        counters: { key: string }[];
        summary: { key: string }[];
        excluded_count: string;
        excluded_list: string;
      }[];
    }[];
  };
  const docs = fs.readFileSync(new URL('../../docs/imports.md', import.meta.url), 'utf8');
  const recipe = fs.readFileSync(new URL('../../docs/development.md', import.meta.url), 'utf8');

  before(async () => {
    server = await startImportTestServer();
    openapi = (await (await server.request('/api/openapi.json')).json()) as typeof openapi;
    meta = (await (await server.request('/api/meta')).json()) as typeof meta;
  });
  after(() => server.close());

  for (const entry of Object.values(importKinds)) {
    describe(`the ${entry.id} kind`, () => {
      it('has its routes in the OpenAPI document and its task types in the tasks’ schema', () => {
        assert.ok(openapi.paths[entry.paths.upload]?.post, `POST ${entry.paths.upload}`);
        assert.ok(openapi.paths[entry.paths.template]?.get, `GET ${entry.paths.template}`);
        assert.ok(openapi.paths[entry.paths.errorReport]?.get, `GET ${entry.paths.errorReport}`);
        const mapping = openapi.components.schemas.BackgroundTask?.discriminator?.mapping ?? {};
        for (const task of entry.tasks) {
          assert.ok(taskTypes.includes(task.type), `${task.type} is a task type`);
          assert.equal(mapping[task.type], `#/components/schemas/${task.schemaId}`);
        }
      });

      it('is described by GET /api/meta, with words for every count its results have', () => {
        assert.ok(meta.import_kinds.includes(entry.id));
        const described = meta.kinds.find((kind) => kind.id === entry.id);
        assert.ok(described, `${entry.id} in GET /api/meta`);
        assert.ok(described.label && described.file_noun && described.in_a_sentence && described.records_gui_path);
        for (const task of entry.tasks) {
          const words = described.tasks.find((t) => t.type === task.type);
          assert.ok(words?.label, `${task.type} has a label`);
          const keys = Object.keys((task.results as z.ZodObject).shape);
          for (const { key } of [...words.counters, ...words.summary]) assert.ok(keys.includes(key), `${task.type} results have ${key}`);
          for (const key of [...task.written, words.excluded_count, words.excluded_list])
            assert.ok(keys.includes(key), `${task.type} results have ${key}`);
          assert.ok(
            words.counters.some((c) => c.key === words.excluded_count),
            `${task.type}: the excluded rows are counted in words`,
          );
        }
      });

      it('has a template, an import that creates its task type, an error report with its columns and a draft to fix its rows in', async () => {
        const kind = await entry.load();
        const template = await server.request(entry.paths.template);
        assert.equal(template.status, 200);
        assert.deepEqual(
          (await template.text())
            .replace(/^\uFEFF/, '')
            .split(/\r?\n/)[0]
            ?.split(','),
          [...kind.columns],
        );
        for (const column of kind.requiredColumns) assert.ok(kind.exampleRow[column] !== undefined, `the example row fills ${column}`);

        // A record with none of the kind's columns: imported in the background, excluded, in the error report.
        const res = await server.request(entry.paths.upload, jsonBody([{ organization_uuid: server.organizationUuid }]));
        assert.equal(res.status, 202, await res.clone().text());
        const { background_task_uuid } = (await res.json()) as { background_task_uuid: string };
        const task = await waitForTask(server, background_task_uuid);
        assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
        const words = meta.kinds.find((k) => k.id === entry.id)?.tasks.find((t) => t.type === task.task_type);
        assert.ok(words, `${task.task_type} is one of ${entry.id}'s task types in GET /api/meta: the GUI finds the kind of the task`);
        assert.equal(task.results?.[words.excluded_count], 1);
        assert.equal((task.results?.[words.excluded_list] as unknown[] | undefined)?.length, 1);
        const report = await server.request(
          `${entry.paths.errorReport.replace('{background_task_uuid}', background_task_uuid)}?format=csv`,
        );
        assert.equal(report.status, 200);
        assert.deepEqual(
          (await report.text())
            .replace(/^\uFEFF/, '')
            .split(/\r?\n/)[0]
            ?.split(','),
          [...kind.columns, 'row_number', 'error'],
        );

        // Its excluded rows can be fixed in place: a draft of the kind's columns.
        const draft = await server.request('/api/import-drafts', jsonBody({ background_task_uuid }));
        assert.equal(draft.status, 201, await draft.clone().text());
        const opened = (await draft.json()) as { kind: string; columns: string[] };
        assert.deepEqual([opened.kind, opened.columns], [entry.id, [...kind.columns]]);
      });

      it('has its docs section, the recipe’s steps cover it, and the CLI offers it', () => {
        assert.ok(docs.includes(entry.paths.upload), `docs/imports.md names ${entry.paths.upload}`);
        assert.ok(recipe.includes('**Add an import kind.**'), 'docs/development.md has the recipe');
        assert.ok(String(importCommand.help?.type).includes(entry.id), `qr-sandbox import --type ${entry.id}`);
      });
    });
  }
});
