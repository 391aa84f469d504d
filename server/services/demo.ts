import type { CatalogDb } from './catalog-writes.ts';
import { createServiceNow } from './services.ts';

/** The demo organization's service catalog; the appointment template's example row uses the first one. */
export const DEMO_SERVICES = [
  { name: 'Plumbing', code: 'PLB', categories: [{ name: 'Maintenance' }, { name: 'Water' }] },
  { name: 'Electrical Inspection', code: 'ELE', categories: [{ name: 'Maintenance' }, { name: 'Safety' }] },
  { name: 'Cleaning', code: 'CLN', categories: [{ name: 'Facilities' }] },
  { name: 'Garden Maintenance', code: 'GDN', categories: [{ name: 'Facilities' }, { name: 'Outdoor' }] },
  { name: 'Pest Control', code: 'PST', categories: [{ name: 'Safety' }] },
  { name: 'Parcel Delivery', code: 'DLV', categories: [{ name: 'Logistics' }] },
] as const;

/** Synchronous: the first start runs it inside the transaction that makes the organization, on that connection. */
export function seedDemoServices(db: CatalogDb, organizationUuid: string): void {
  for (const service of DEMO_SERVICES) {
    createServiceNow(db, {
      organization_uuid: organizationUuid,
      name: service.name,
      code: service.code,
      categories: [...service.categories],
    });
  }
}
