import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextImportViolations } from '../../scripts/architecture/context-imports.ts';
import { importGraph, problems, violations } from '../../scripts/check-architecture.ts';

const CONTEXT = 'server/context.ts';

describe('the server-context rule of the architecture check', () => {
  it('refuses a logic file importing the server context, and lets routes and the composition import it', () => {
    const graph = new Map([
      [CONTEXT, []],
      ['server/receiver/inboxes.ts', [CONTEXT, 'server/receiver/store.ts']],
      ['server/cli/listen.ts', [CONTEXT]],
      ['server/receiver/routes.ts', [CONTEXT, 'server/receiver/inboxes.ts']],
      ['server/qrcodes/bulk-routes.ts', [CONTEXT]],
      ['server/receiver/receiver-route.ts', [CONTEXT]],
      ['server/app.ts', [CONTEXT]],
      ['server/server.ts', [CONTEXT]],
      ['server/http/api.ts', [CONTEXT]],
      ['server/lifecycle/shutdown.ts', [CONTEXT]],
    ]);
    assert.deepEqual(
      contextImportViolations(graph, new Set()).map((line) => line.replace(/ \(declare .*\)$/, '')),
      [
        'server/receiver/inboxes.ts imports the whole server context server/context.ts',
        'server/cli/listen.ts imports the whole server context server/context.ts',
      ],
    );
  });

  it('lets an exception pass while it imports the context, and fails once it no longer does', () => {
    const graph = new Map([
      [CONTEXT, []],
      ['server/import-drafts/drafts.ts', [CONTEXT]],
      ['server/import-drafts/download.ts', ['server/import-drafts/drafts.ts']],
    ]);
    const exceptions = new Set(['server/import-drafts/drafts.ts', 'server/import-drafts/download.ts', 'server/import-drafts/gone.ts']);
    assert.deepEqual(contextImportViolations(graph, exceptions), [
      'server/import-drafts/download.ts no longer imports server/context.ts: remove it from EXCEPTIONS in scripts/architecture/context-imports.ts',
      'server/import-drafts/gone.ts no longer imports server/context.ts: remove it from EXCEPTIONS in scripts/architecture/context-imports.ts',
    ]);
  });

  it('makes the architecture check fail on a logic file importing the server context', () => {
    const graph = importGraph();
    assert.deepEqual(problems(violations(graph)), []);
    graph.set('server/receiver/inboxes.ts', [...(graph.get('server/receiver/inboxes.ts') ?? []), CONTEXT]);
    assert.deepEqual(problems(violations(graph)), [
      'server/receiver/inboxes.ts imports the whole server context server/context.ts (declare the parts it uses as a small interface; only routes and the composition import the context)',
    ]);
  });
});
