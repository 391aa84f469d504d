import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageImportViolations } from '../../scripts/architecture/page-imports.ts';
import { importGraph, importTargets, problems, violations } from '../../scripts/check-architecture.ts';

describe('the renderer page-imports rule', () => {
  it('refuses a page importing another page, and anything but the route table importing a page', () => {
    const graph = new Map([
      [
        'renderer/src/pages/remote/RemoteTasksPage.tsx',
        ['renderer/src/pages/tasks/TaskRow.tsx', 'renderer/src/pages/remote/remote-api.ts'],
      ],
      ['renderer/src/components/TaskRow.tsx', ['renderer/src/pages/tasks/task-row-text.ts']],
      ['renderer/src/api/task-query.ts', ['renderer/src/pages/tasks/live-list.ts']],
      ['renderer/src/Shell.tsx', ['renderer/src/pages/events/use-activity.ts']],
    ]);
    assert.deepEqual(pageImportViolations(graph), [
      "renderer/src/pages/remote/RemoteTasksPage.tsx imports renderer/src/pages/tasks/TaskRow.tsx, another page's folder (shared pieces go in renderer/src/components/, api/ or live/)",
      'renderer/src/components/TaskRow.tsx imports the page renderer/src/pages/tasks/task-row-text.ts (only renderer/src/routes.tsx imports pages)',
      'renderer/src/api/task-query.ts imports the page renderer/src/pages/tasks/live-list.ts (only renderer/src/routes.tsx imports pages)',
      'renderer/src/Shell.tsx imports the page renderer/src/pages/events/use-activity.ts (only renderer/src/routes.tsx imports pages)',
    ]);
  });

  it('lets a page import its own folder and the shared folders, and the route table import every page', () => {
    const graph = new Map([
      [
        'renderer/src/pages/tasks/TaskPage.tsx',
        ['renderer/src/pages/tasks/TaskActions.tsx', 'renderer/src/components/TaskRow.tsx', 'renderer/src/api/task-query.ts'],
      ],
      ['renderer/src/routes.tsx', ['renderer/src/pages/tasks/TaskPage.tsx', 'renderer/src/pages/remote/RemoteTasksPage.tsx']],
    ]);
    assert.deepEqual(pageImportViolations(graph), []);
  });

  it("counts stylesheet imports: a page's CSS is for its page only", () => {
    const decrypt = 'renderer/src/pages/decrypt/DecryptPage.tsx';
    const targets = importTargets(
      decrypt,
      "import { useState } from 'react';\nimport '../inspector/inspector.css';\nimport './decrypt.css';\nimport 'uplot/dist/uPlot.min.css';\n",
    );
    assert.deepEqual(targets, ['renderer/src/pages/inspector/inspector.css', 'renderer/src/pages/decrypt/decrypt.css']);
    const stylesheetRule =
      "a page's stylesheet (shared rules go in renderer/src/styles.css or next to their component in renderer/src/components/)";
    assert.deepEqual(
      pageImportViolations(
        new Map([
          [decrypt, targets],
          ['renderer/src/components/TaskRow.tsx', ['renderer/src/pages/inspector/inspector.css', 'renderer/src/components/verdicts.css']],
          ['renderer/src/pages/remote/RemoteTasksPage.tsx', ['renderer/src/components/remote/remote.css']],
        ]),
      ),
      [
        `${decrypt} imports renderer/src/pages/inspector/inspector.css, ${stylesheetRule}`,
        `renderer/src/components/TaskRow.tsx imports renderer/src/pages/inspector/inspector.css, ${stylesheetRule}`,
      ],
    );
    const graph = importGraph();
    assert.ok(
      graph.get(decrypt)?.includes('renderer/src/pages/decrypt/decrypt.css'),
      'the real graph has the page importing its own stylesheet',
    );
    graph.set(decrypt, [...(graph.get(decrypt) ?? []), ...targets]);
    assert.deepEqual(problems(violations(graph)), [`${decrypt} imports renderer/src/pages/inspector/inspector.css, ${stylesheetRule}`]);
  });

  it('makes the architecture check fail on a page-to-page import, with no exception', () => {
    const graph = importGraph();
    graph.set('renderer/src/pages/imports/ImportsPage.tsx', [
      ...(graph.get('renderer/src/pages/imports/ImportsPage.tsx') ?? []),
      'renderer/src/pages/tasks/TaskPage.tsx',
    ]);
    assert.deepEqual(problems(violations(graph)), [
      "renderer/src/pages/imports/ImportsPage.tsx imports renderer/src/pages/tasks/TaskPage.tsx, another page's folder (shared pieces go in renderer/src/components/, api/ or live/)",
    ]);
  });
});
