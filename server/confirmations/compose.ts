import { randomUUID } from 'node:crypto';
import { nowMicros } from '../webhooks/microtime.ts';
import { demoCompanies, demoNotes, demoQuestions, demoServices, demoWorkers, fallbackPosition, pick, stableUuid } from './demo-data.ts';
import { distanceKm, nearby, round, type LatLng } from './geo.ts';
import type { QrCodeForConfirmation } from './qr-lookup.ts';
import type { ConfirmationStatus, CreateConfirmationBody, PreviousConfirmation, ServiceConfirmation } from './schemas.ts';

/** A GPS fix within this distance of the QR code's coordinates verifies the location. */
export const LOCATION_VERIFIED_WITHIN_KM = 0.15;
const MINUTE_MS = 60_000;

export type Overrides = Omit<CreateConfirmationBody, 'organization_uuid' | 'qr_code_uuid' | 'status'>;
type User = ServiceConfirmation['user'];

/** The worker the confirmation is by: the given one, else the organization's demo field worker. */
/** The override as given (null included: the field is "string or null"), else the generated value. */
const given = <T>(override: T | undefined, generated: () => T): T => (override === undefined ? generated() : override);

export function resolveUser(organizationUuid: string, given: Overrides['user']): User {
  const person = given ?? { ...demoWorkers[0], email: undefined };
  const firstname = person.firstname ?? 'Mia';
  const lastname = person.lastname ?? 'Nguyen';
  const email = person.email ?? demoEmail(organizationUuid, firstname, lastname);
  return { uuid: given?.uuid ?? stableUuid(organizationUuid, 'user', email.toLowerCase()), firstname, lastname, email };
}

/** The organization's demo field worker number `index` (they take turns), as a confirmation names them. */
export function demoWorker(organizationUuid: string, index: number): User {
  const { firstname, lastname } = demoWorkers[index % demoWorkers.length] ?? { firstname: 'Mia', lastname: 'Nguyen' };
  return resolveUser(organizationUuid, { firstname, lastname, email: demoEmail(organizationUuid, firstname, lastname) });
}

const demoEmail = (organizationUuid: string, firstname: string, lastname: string) =>
  `${firstname}.${lastname}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domainOf(demoCompanyName(organizationUuid))}`;

function demoCompanyName(organizationUuid: string): string {
  const index = Number.parseInt(stableUuid(organizationUuid, 'company-choice', '').slice(0, 2), 16) % demoCompanies.length;
  return demoCompanies[index] ?? 'Harbourside Facility Services';
}

function domainOf(company: string): string {
  return `${company.toLowerCase().split(' ').slice(0, 2).join('')}.example.com`;
}

export interface ComposeInput {
  organizationUuid: string;
  status: ConfirmationStatus;
  qrCode: QrCodeForConfirmation;
  user: User;
  overrides: Overrides;
  /** The user's latest confirmation, which this one follows. */
  previous: ServiceConfirmation | undefined;
  /** For a check-out: the user's open check-in at this QR code. */
  openCheckIn: ServiceConfirmation | undefined;
  now: Date;
  random: () => number;
  /** The organization's service catalog (GET /api/services); empty: the demo services are used. */
  catalog?: readonly CatalogService[];
}

/** A service of the organization's catalog, as a confirmation names it. */
export interface CatalogService {
  uuid: string;
  name: string;
  code: string | null;
  categories: { uuid: string; name: string }[];
}

/** A complete service confirmation (docs/webhooks.md) with the per-event fields of docs/webhooks.md. */
export function composeConfirmation(input: ComposeInput): ServiceConfirmation {
  const { organizationUuid, status, qrCode, user, overrides: o, previous, now, random } = input;
  const at = (ms: number) => new Date(ms).toISOString();
  const companyName = o.company?.name ?? demoCompanyName(organizationUuid);
  const company = { uuid: o.company?.uuid ?? stableUuid(organizationUuid, 'company', companyName), name: companyName };
  const services =
    input.catalog && input.catalog.length > 0
      ? catalogServices(input.catalog, status, o.service, random)
      : chooseServices(organizationUuid, status, o.service, random);
  const mainService = services[0];
  if (!mainService) throw new Error('no service chosen');

  const site: LatLng | null =
    qrCode.latitude !== null && qrCode.longitude !== null ? { lat: qrCode.latitude, lng: qrCode.longitude } : null;
  const position = o.user_geolocation
    ? { lat: o.user_geolocation.lat, lng: o.user_geolocation.lng }
    : nearby(site ?? fallbackPosition, 40, random);
  const user_geolocation = { address: o.user_geolocation?.address ?? qrCode.location, ...position };
  const location_verified = o.location_verified ?? (site !== null && distanceKm(site, position) <= LOCATION_VERIFIED_WITHIN_KM);

  const calculated = previous && status === 'CHECK_OUT' ? round(distanceKm(previous.user_geolocation, position), 3) : 0;
  const manual =
    status === 'CHECK_OUT'
      ? (o.manual_distance_from_previous ?? round(calculated * (1 + 0.2 * random()), 1))
      : (o.manual_distance_from_previous ?? 0);

  const nowMs = now.getTime();
  const checkedInAt = given(o.checked_in_at, () =>
    status === 'CHECK_IN'
      ? at(nowMs)
      : status === 'CHECK_OUT'
        ? (input.openCheckIn?.checked_in_at ?? at(nowMs - (25 + Math.floor(random() * 65)) * MINUTE_MS))
        : null,
  );
  const checkedOutAt = given(o.checked_out_at, () => (status === 'CHECK_OUT' ? at(nowMs) : null));

  const start = Math.floor((nowMs - 30 * MINUTE_MS) / (30 * MINUTE_MS)) * 30 * MINUTE_MS;
  const appointment_schedule = o.appointment_schedule ?? {
    job_reference_id: `JOB-${now.getUTCFullYear()}-${String(Math.floor(random() * 1_000_000)).padStart(6, '0')}`,
    start_date_time: at(start),
    end_date_time: at(start + 60 * MINUTE_MS),
  };
  const tag = (o.qr_code_tag_uuid ? qrCode.tags.find((t) => t.uuid === o.qr_code_tag_uuid) : undefined) ?? qrCode.tags[0];
  const timestamp = nowMicros();
  const imageId = () => randomUUID();

  return {
    uuid: randomUUID(),
    created_on: timestamp,
    updated_on: timestamp,
    organization_uuid: organizationUuid,
    user_uuid: user.uuid,
    company_uuid: company.uuid,
    qr_code_uuid: qrCode.uuid,
    qr_code_tag_uuid: tag?.uuid ?? null,
    service_uuid: mainService.uuid,
    appointment_schedule_uuid: stableUuid(organizationUuid, 'appointment', appointment_schedule.job_reference_id),
    service: mainService.name,
    status,
    location: qrCode.location,
    location_verified,
    checked_in_at: checkedInAt,
    checked_out_at: checkedOutAt,
    note: o.note ?? pick(demoNotes[status], random),
    work_mode: o.work_mode ?? 'IN_PERSON',
    is_sms: o.is_sms ?? (status === 'DELIVERY' ? random() < 0.5 : false),
    delivery_image_url: given(o.delivery_image_url, () =>
      status === 'DELIVERY' ? `https://images.qr-sandbox.example/deliveries/${imageId()}.jpg` : null,
    ),
    checkout_image_urls: given(o.checkout_image_urls, () =>
      status === 'CHECK_OUT'
        ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => `https://images.qr-sandbox.example/checkouts/${imageId()}.jpg`)
        : null,
    ),
    manual_distance_from_previous: manual,
    calculated_distance_from_previous: calculated,
    previous_service_confirmation_uuid: previous?.uuid ?? null,
    previous_service_confirmation: previous ? asPrevious(previous) : null,
    user_geolocation,
    user,
    company,
    appointment_schedule,
    qr_code_tag: tag ? { tag_display_name: tag.tag_display_name, tag_name: tag.tag_name, tag_number: tag.tag_number } : null,
    services,
    question_responses:
      o.question_responses ??
      demoQuestions.slice(0, 2).map((question_text) => ({
        response_text: String(3 + Math.floor(random() * 3)),
        question: { question_text, question_type: 'RATING' },
      })),
  };
}

/** The previous confirmation, embedded one level deep: its own previous by uuid only. */
function asPrevious(previous: ServiceConfirmation): PreviousConfirmation {
  return { ...previous, previous_service_confirmation: null };
}

/** Services from the organization's catalog: the one named (by name or code) when given, else one or two at random (a delivery prefers a delivery service). */
function catalogServices(
  catalog: readonly CatalogService[],
  status: ConfirmationStatus,
  given: string | undefined,
  random: () => number,
): ServiceConfirmation['services'] {
  const toService = (s: CatalogService) => ({ uuid: s.uuid, name: s.name, code: s.code ?? '', service_categories: s.categories });
  const key = (text: string | null) => (text ?? '').trim().toLowerCase();
  if (given) {
    const known = catalog.find((s) => key(s.name) === key(given) || (s.code !== null && key(s.code) === key(given)));
    if (known) return [toService(known)];
  }
  const delivery = catalog.filter((s) => /deliver/i.test(`${s.name} ${s.code ?? ''}`));
  if (status === 'DELIVERY') return [toService(pick(delivery.length > 0 ? delivery : catalog, random))];
  const onSite = catalog.length > delivery.length ? catalog.filter((s) => !delivery.includes(s)) : catalog;
  const first = pick(onSite, random);
  const others = onSite.filter((s) => s !== first);
  const second = others.length > 0 && random() < 0.5 ? pick(others, random) : undefined;
  return [first, ...(second ? [second] : [])].map(toService);
}

function chooseServices(
  organizationUuid: string,
  status: ConfirmationStatus,
  given: string | undefined,
  random: () => number,
): ServiceConfirmation['services'] {
  const toService = (s: { name: string; code: string; categories: string[] }) => ({
    uuid: stableUuid(organizationUuid, 'service', s.code),
    name: s.name,
    code: s.code,
    service_categories: s.categories.map((name) => ({ uuid: stableUuid(organizationUuid, 'service-category', name), name })),
  });
  if (given) {
    const known = demoServices.find((s) => s.name.toLowerCase() === given.toLowerCase() || s.code.toLowerCase() === given.toLowerCase());
    return [
      toService(
        known ?? {
          name: given,
          code: given
            .toUpperCase()
            .replace(/[^A-Z0-9]+/g, '-')
            .slice(0, 20),
          categories: [],
        },
      ),
    ];
  }
  if (status === 'DELIVERY') return [toService(demoServices.find((s) => s.code === 'PCL-DLV') ?? pick(demoServices, random))];
  const onSite = demoServices.filter((s) => s.code !== 'PCL-DLV');
  const first = pick(onSite, random);
  const second =
    random() < 0.5
      ? pick(
          onSite.filter((s) => s !== first),
          random,
        )
      : undefined;
  return [first, ...(second ? [second] : [])].map(toService);
}
