/** The built-in scenarios of `qr-sandbox scenario run NAME`, as scenario files would write them. */
import { checkInEvent, checkOutEvent, deliveryEvent } from '../confirmations/events.ts';
import type { Scenario } from './scenario-schema.ts';

interface BuiltIn {
  summary: string;
  /** How --count changes it: the size of the one run, or the number of runs. */
  count: 'size' | 'runs';
  defaultCount: number;
  make(count: number, now: Date): Scenario;
}

/** A check-in time half an hour ago, as the API takes it. */
function halfHourAgo(now: Date): string {
  return new Date(now.getTime() - 30 * 60_000).toISOString();
}

export const builtInScenarios: Record<string, BuiltIn> = {
  visit: {
    summary: 'A check-in, then the check-out of the same visit (same QR code and worker), arriving in that order',
    count: 'runs',
    defaultCount: 1,
    make: () => ({
      name: 'visit',
      steps: [
        { event: checkInEvent.type, qr_code: '@visit', count: 1, delay_ms: 0, wait_delivered: true },
        { event: checkOutEvent.type, qr_code: '@visit', count: 1, delay_ms: 0, wait_delivered: true },
      ],
    }),
  },
  'delivery-day': {
    summary: 'N deliveries (default 6) spread over up to three QR codes, one after the other',
    count: 'size',
    defaultCount: 6,
    make: (count) => ({
      name: 'delivery-day',
      steps: Array.from({ length: count }, (_, i) => ({
        event: deliveryEvent.type,
        qr_code: `@site-${(i % 3) + 1}`,
        count: 1,
        delay_ms: 0,
        wait_delivered: false,
      })),
    }),
  },
  burst: {
    summary: 'N deliveries (default 20) sent all at once',
    count: 'size',
    defaultCount: 20,
    make: (count) => ({
      name: 'burst',
      steps: [{ event: deliveryEvent.type, count, delay_ms: 0, wait_delivered: false }],
    }),
  },
  duplicate: {
    summary: 'One delivery event delivered twice: the same event id and delivery id arrive again once the first has',
    count: 'runs',
    defaultCount: 1,
    make: () => ({
      name: 'duplicate',
      steps: [
        { id: 'original', event: deliveryEvent.type, count: 1, delay_ms: 0, wait_delivered: true },
        { redeliver: 'original', count: 1, delay_ms: 0, wait_delivered: true },
      ],
    }),
  },
  'out-of-order': {
    summary: 'The check-out of a visit sent (and arriving) before its check-in',
    count: 'runs',
    defaultCount: 1,
    make: (_count, now) => {
      const data = { checked_in_at: halfHourAgo(now) };
      return {
        name: 'out-of-order',
        steps: [
          { event: checkOutEvent.type, qr_code: '@visit', data, count: 1, delay_ms: 0, wait_delivered: true },
          { event: checkInEvent.type, qr_code: '@visit', data, count: 1, delay_ms: 0, wait_delivered: true },
        ],
      };
    },
  },
};
