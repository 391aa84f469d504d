import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { circles, importGraph, problems, violations } from '../../scripts/check-architecture.ts';

describe('the architecture check', () => {
  it('finds an import circle and names its files', () => {
    const graph = new Map([
      ['server/a/one.ts', ['server/a/two.ts']],
      ['server/a/two.ts', ['server/b/three.ts']],
      ['server/b/three.ts', ['server/a/one.ts']],
      ['server/b/four.ts', ['server/a/one.ts']],
    ]);
    assert.deepEqual(circles(graph), [['server/a/one.ts', 'server/a/two.ts', 'server/b/three.ts']]);
  });

  it('refuses the renderer importing server source, common/ importing outside it, a capability importing the composition root, the engine importing a kind', () => {
    const graph = new Map([
      ['renderer/src/pages/x/Page.tsx', ['server/qrcodes/schemas.ts', 'common/json-problem.ts']],
      ['server/receiver/resend.ts', ['common/json-problem.ts']],
      ['common/json-problem.ts', ['common/other.ts', 'server/http/errors.ts']],
      ['server/demo/demo-mode.ts', ['server/server.ts']],
      ['server/cli/serve.ts', ['server/server.ts']],
      ['server/imports/routes.ts', ['server/appointments/import-kind.ts']],
      ['server/imports/kinds.ts', ['server/qrcodes/import-kind.ts']],
    ]);
    assert.deepEqual(violations(graph), [
      'renderer/src/pages/x/Page.tsx imports server source server/qrcodes/schemas.ts',
      'common/json-problem.ts imports server/http/errors.ts, outside common/',
      'server/demo/demo-mode.ts imports the composition root server/server.ts',
      'server/imports/routes.ts imports the import kind server/appointments/import-kind.ts (go through server/imports/kinds.ts)',
    ]);
  });

  it('lets known violations pass until they are fixed, then asks for them to be removed', () => {
    const known = new Set(['old one', 'fixed one']);
    assert.deepEqual(problems(['old one', 'new one'], known), ['new one', 'fixed, remove from KNOWN: fixed one']);
  });

  it('finds nothing new in the real tree', () => {
    assert.deepEqual(problems(violations(importGraph())), []);
  });

  it('reads the real tree: every import of a server file resolves to a file it found', () => {
    const graph = importGraph();
    assert.ok(graph.size > 300, `read ${graph.size} files`);
    const dangling = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => /^(server|common)\//.test(target) && !graph.has(target)).map((target) => `${file} -> ${target}`),
    );
    assert.deepEqual(dangling, []);
  });
});
