import type { ImportHandler } from '../../api/appointment-types.ts';
import { CrudListPage } from '../../components/CrudListPage.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import type { Column } from '../../components/ListView.tsx';
import { Link } from '../../router.tsx';
import { AppointmentTabs } from './AppointmentTabs.tsx';
import { ImportHandlerForm } from './ImportHandlerForm.tsx';

const COLUMNS: Column<ImportHandler>[] = [
  { header: 'Name', cell: (h) => h.name },
  { header: 'Slug (org_identifier)', cell: (h) => <code>{h.slug}</code> },
  {
    header: 'Columns',
    cell: (h) => (
      <ul className="mapping-list">
        {Object.entries(h.mapping).map(([title, field]) => (
          <li key={title}>
            “{title}” → <code>{field}</code>
          </li>
        ))}
      </ul>
    ),
  },
];

export function ImportHandlersPage() {
  return (
    <CrudListPage<ImportHandler>
      title="Appointments"
      description={
        <>
          Import handlers read your own file layout: each maps your column titles to the appointment fields. Choose one on the{' '}
          <Link to="/imports">Imports</Link> page (org_identifier); <code>default</code> reads the template&apos;s column names.
        </>
      }
      tabs={<AppointmentTabs />}
      kind="import handler"
      path="/api/import-handlers"
      query={{ kind: 'appointments' }}
      renderForm={(handler, props) => <ImportHandlerForm handler={handler} {...props} />}
      savedNotice={(h, created) => `${created ? 'Created' : 'Saved'} the import handler ${h.name} (org_identifier ${h.slug}).`}
      deleteText={(h) => (
        <p>
          Imports that send org_identifier <code>{h.slug}</code> are refused afterwards. Appointments already imported stay.
        </p>
      )}
      columns={COLUMNS}
      empty={
        <EmptyState title="No import handlers yet">
          <p>
            Files laid out like the template need none. If your export names its columns differently (e.g. “Job Ref” for job_reference_id),
            create a handler with “New import handler”.
          </p>
        </EmptyState>
      }
    />
  );
}
