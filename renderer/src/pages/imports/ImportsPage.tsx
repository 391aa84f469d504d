import { NotInThisBuild } from '../placeholders/NotInThisBuild.tsx';
import { Link } from '../../router.tsx';

export function ImportsPage() {
  return (
    <NotInThisBuild
      title="Imports"
      description="Import QR code addresses or appointment schedules from a CSV, Excel or JSON file, check the columns before sending, and fix excluded rows."
      what="Importing"
      api={['POST /api/qrcodes/bulk', 'POST /api/appointment_schedule/bulk']}
      next={
        <>
          Imports that other clients start still appear under <Link to="/tasks">Tasks</Link>, with their progress and excluded rows.
        </>
      }
    />
  );
}
