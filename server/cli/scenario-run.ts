import { countOf } from '../../common/count-words.ts';
import { StartupError } from '../startup-error.ts';
import type { Command } from './command.ts';
import { clientHelp, clientOptions, countOption, readJsonFile } from './client-command.ts';
import { EXIT } from './exit-codes.ts';
import { organizationOf, resolveTarget } from './connection.ts';
import { runScenario } from './scenario-runner.ts';
import { describeScenarioIssues, scenarioSchema, type Scenario } from './scenario-schema.ts';
import { builtInScenarios } from './scenarios-builtin.ts';

const NAMES = Object.keys(builtInScenarios);

function looksLikeFile(given: string): boolean {
  return given.endsWith('.json') || given.includes('/') || given.includes('\\');
}

/** The scenario to run and how many times. */
function loadScenario(given: string, count: number | undefined): { scenario: Scenario; runs: number } {
  const builtIn = builtInScenarios[given];
  if (builtIn) {
    const n = count ?? builtIn.defaultCount;
    return builtIn.count === 'size'
      ? { scenario: builtIn.make(n, new Date()), runs: 1 }
      : { scenario: builtIn.make(n, new Date()), runs: n };
  }
  if (!looksLikeFile(given)) {
    throw new StartupError(`No scenario named "${given}". Built-in scenarios: ${NAMES.join(', ')}; or give a scenario file (FILE.json).`);
  }
  const parsed = scenarioSchema.safeParse(readJsonFile(given, 'Scenario file'));
  if (!parsed.success) {
    const problems = describeScenarioIssues(parsed.error).map((line) => `  ${line}`);
    throw new StartupError(
      `Scenario file ${given} is not valid:\n${problems.join('\n')}\nThe format is in docs/webhook-developer.md#scenario-files.`,
    );
  }
  return { scenario: parsed.data, runs: count ?? 1 };
}

export const scenarioRunCommand: Command = {
  name: 'scenario run',
  summary: `Play a scenario of events: a built-in one (${NAMES.join(', ')}) or a scenario file; prints each event id.`,
  usage: 'scenario run NAME|FILE.json [--count N] [--json]',
  allowPositionals: true,
  options: { count: { type: 'string' }, ...clientOptions },
  help: {
    count: 'delivery-day and burst: how many deliveries; the others and files: how many times to run it. Default 1 run',
    ...clientHelp,
  },
  examples: [
    ...Object.entries(builtInScenarios).map(([name, s]) => `qr-sandbox scenario run ${name.padEnd(13)}# ${s.summary}`),
    'qr-sandbox scenario run burst --count 50 --json | jq -r .event_id',
    'qr-sandbox scenario run my-scenario.json --count 3',
  ],
  async run(values, positionals) {
    const given = positionals[0];
    if (positionals.length !== 1 || !given) throw new StartupError(`scenario run takes one NAME (${NAMES.join(', ')}) or FILE.json.`);
    const count = values.count === undefined ? undefined : countOption(values, 'count', 1);
    const { scenario, runs } = loadScenario(given, count);
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    const summary = await runScenario(target.client, organization, scenario, runs, values);
    process.stderr.write(
      `Scenario ${scenario.name ?? given}: ${countOf(summary.events, 'event')} recorded, ${countOf(summary.deliveries, 'delivery', 'deliveries')} sent to webhooks.\n`,
    );
    return EXIT.ok;
  },
};
