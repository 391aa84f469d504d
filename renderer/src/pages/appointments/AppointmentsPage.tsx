import { NotInThisBuild } from '../placeholders/NotInThisBuild.tsx';

export function AppointmentsPage() {
  return (
    <NotInThisBuild
      title="Appointments"
      description="Search the appointment schedules imported for your QR codes."
      what="The appointment list"
      api={['GET /api/appointment_schedule']}
      next="When the server offers it, this page lists appointment schedules with filters by QR code, reference and date."
    />
  );
}
