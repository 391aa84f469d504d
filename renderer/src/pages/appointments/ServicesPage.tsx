import type { Service } from '../../api/appointment-types.ts';
import { CrudListPage } from '../../components/CrudListPage.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import type { Column } from '../../components/ListView.tsx';
import { AppointmentTabs } from './AppointmentTabs.tsx';
import { ServiceForm } from './ServiceForm.tsx';

const COLUMNS: Column<Service>[] = [
  { header: 'Name', cell: (s) => s.name },
  { header: 'Code', cell: (s) => (s.code ? <code>{s.code}</code> : <span className="muted">—</span>) },
  {
    header: 'Categories',
    cell: (s) =>
      s.categories.length === 0 ? (
        <span className="muted">—</span>
      ) : (
        s.categories.map((c) => (
          <span key={c.uuid} className="tag-chip">
            {c.name}
          </span>
        ))
      ),
  },
];

export function ServicesPage() {
  return (
    <CrudListPage<Service>
      title="Appointments"
      description="The service catalog: an appointment import matches each row's service name or code against it."
      tabs={<AppointmentTabs />}
      kind="service"
      path="/api/services"
      renderForm={(service, props) => <ServiceForm service={service} {...props} />}
      savedNotice={(s, created) => `${created ? 'Created' : 'Saved'} the service ${s.name}.`}
      deleteText={() => (
        <p>Existing appointments keep its name; imports stop matching it, so rows naming it are excluded until it is added again.</p>
      )}
      columns={COLUMNS}
      empty={
        <EmptyState title="No services yet">
          <p>Appointment rows name a service; add the services your organization offers with “New service”.</p>
        </EmptyState>
      }
    />
  );
}
