import { NotInThisBuild } from '../placeholders/NotInThisBuild.tsx';

export function QrCodesPage() {
  return (
    <NotInThisBuild
      title="QR codes"
      description="Search, create, edit and delete the QR code addresses of your organization."
      what="QR code management"
      api={['GET /api/qrcodes']}
      next="When the server offers it, this page lists your QR code addresses with search and pages."
    />
  );
}
