import { Link, useLocation } from '../../router.tsx';
import './appointments.css';

const TABS = [
  { path: '/appointments', label: 'Schedule' },
  { path: '/appointments/services', label: 'Services' },
  { path: '/appointments/import-handlers', label: 'Import handlers' },
] as const;

/** The three parts of the Appointments section, one link each. */
export function AppointmentTabs() {
  const { path } = useLocation();
  return (
    <nav className="sub-tabs" aria-label="Appointments">
      {TABS.map((tab) => (
        <Link key={tab.path} to={tab.path} className="sub-tab" aria-current={path === tab.path ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
