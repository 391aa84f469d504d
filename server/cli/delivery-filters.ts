import { sinceTime } from './api-call.ts';
import type { Options, Values } from './command.ts';

/** --since and --webhook: what narrows both deliveries list and deliveries redeliver. */
export const deliveryFilterOptions: Options = { since: { type: 'string' }, webhook: { type: 'string' } };
export const deliveryFilterHelp = {
  since: 'Only deliveries created since: an ISO 8601 time, or 30m, 2h, 1d back from now',
  webhook: "Only this webhook's deliveries (its uuid)",
};

/** The filters given, by their API names (since, webhook_uuid). */
export function deliveryFilters(values: Values): { since?: string; webhook_uuid?: string } {
  const since = sinceTime(values.since);
  return { ...(since ? { since } : {}), ...(typeof values.webhook === 'string' ? { webhook_uuid: values.webhook } : {}) };
}
