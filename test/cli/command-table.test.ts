import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandNames, loadCommands } from '../../server/cli/main.ts';

test('every entry of the CLI command table loads the command it is named for, each name once', async () => {
  const loaded = await loadCommands();
  assert.deepEqual(
    loaded.map((command) => command.name),
    commandNames(),
  );
  assert.equal(new Set(commandNames()).size, commandNames().length);
});
