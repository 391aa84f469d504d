import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { toPage } from '../http/pagination.ts';
import { organizationGet } from '../http/resource-routes.ts';
import { resolveImportHandler } from '../import-handlers/handlers.ts';
import { appointmentListQuerySchema, appointmentSchedulePageSchema, templateQuerySchema } from './schemas.ts';
import { listSchedules } from './store.ts';
import { appointmentImportEntry } from './import-entry.ts';
import { appointmentTemplateCsv } from './template.ts';

export function registerAppointmentRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  const tag = 'Appointment schedules';

  organizationGet(
    api,
    {
      path: '/api/appointment_schedule',
      tag,
      summary: 'List appointment schedules of an organization, by start time.',
      description:
        '`from` and `to` take a date (compared with the local appointment_date, both ends included) or an instant with an offset ' +
        '(compared with the start instant, both ends included).',
      query: appointmentListQuerySchema,
      response: appointmentSchedulePageSchema,
    },
    async (query) => toPage(await listSchedules(db, query), query),
  );

  api.route(
    {
      method: 'get',
      path: appointmentImportEntry.paths.template,
      tag,
      summary: 'Download the CSV template for appointment imports: the columns of the service contract in order and one example row.',
      description: 'With `org_identifier`, the columns carry the titles of that import handler.',
      query: templateQuerySchema,
      responseContent: { 'text/csv': 'The template, as an attachment' },
      errors: [400],
    },
    async ({ query, principal, res }) => {
      const handler = await resolveImportHandler(db, principal.organizationUuid, query.org_identifier);
      const { templateFileName } = appointmentImportEntry;
      const filename = handler.slug === 'default' ? templateFileName : templateFileName.replace('.csv', `_${handler.slug}.csv`);
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .attachment(filename)
        .send(appointmentTemplateCsv(principal.organizationUuid, handler.mapping));
    },
  );
}
