import { openDatabase } from '../db/open-database.ts';
import { createOrganization, DEFAULT_TIMEZONE } from '../orgs/organizations.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, dataDirOption, resolveDataDir, type Command } from './command.ts';

export const orgCreateCommand: Command = {
  name: 'org create',
  summary: 'Create an organization with its own admin API key, and print its credential as JSON.',
  usage: 'org create --name NAME [--timezone Area/City] [--data-dir DIR]',
  options: { name: { type: 'string' }, timezone: { type: 'string' }, ...dataDirOption },
  help: {
    name: 'Name of the new organization (required)',
    timezone: `Default time zone of its appointments. Default ${DEFAULT_TIMEZONE}`,
    ...dataDirHelp,
  },
  async run(values) {
    const name = typeof values.name === 'string' ? values.name.trim() : '';
    if (!name) throw new StartupError('org create needs --name NAME.');
    const timezone = typeof values.timezone === 'string' ? values.timezone : DEFAULT_TIMEZONE;
    if (!Intl.supportedValuesOf('timeZone').includes(timezone) && timezone !== 'UTC') {
      throw new StartupError(`--timezone must be an IANA time zone such as Australia/Sydney, not "${timezone}".`);
    }
    const db = await openDatabase(resolveDataDir(values));
    try {
      const credentials = await createOrganization(db.kysely, { name, defaultTimezone: timezone });
      process.stdout.write(`${JSON.stringify(credentials, null, 2)}\n`);
      return 0;
    } finally {
      await db.close();
    }
  },
};
