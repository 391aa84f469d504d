import { useSearchParams } from '../../router.tsx';
import { SIGNATURE_STATUSES } from '../../api/inspector-types.ts';

export interface MessageFilters {
  event_type: string;
  decrypted: string;
  signature_status: string;
  duplicate: string;
  /** As typed in a datetime-local field (local time); sent as ISO 8601. */
  from: string;
  to: string;
}

const NAMES = ['event_type', 'decrypted', 'signature_status', 'duplicate', 'from', 'to'] as const;

const YES_NO = ['true', 'false'] as const;

/** The address's value when the API takes it, else nothing (the address can say anything). */
function oneOf<T extends string>(allowed: readonly T[], value: string): T | undefined {
  return allowed.find((a) => a === value);
}

/** "2026-11-21T10:00" (local) → ISO 8601 UTC; undefined when empty or not a time. */
export function localToIso(local: string): string | undefined {
  if (local === '') return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The message filters, kept in the address (reload and back keep them). */
export function useMessageFilters() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(NAMES.map((n) => [n, params.get(n) ?? ''])) as unknown as MessageFilters;
  const active = NAMES.some((n) => filters[n] !== '');
  const setFilter = (name: keyof MessageFilters, value: string) => setParams({ [name]: value, page: null }, { replace: true });
  const clear = () => setParams({ ...Object.fromEntries(NAMES.map((n) => [n, null])), page: null });
  /** The filters as API query parameters. */
  const query = {
    event_type: filters.event_type,
    decrypted: oneOf(YES_NO, filters.decrypted),
    signature_status: oneOf(SIGNATURE_STATUSES, filters.signature_status),
    duplicate: oneOf(YES_NO, filters.duplicate),
    from: localToIso(filters.from),
    to: localToIso(filters.to),
  };
  return { filters, active, setFilter, clear, query, params, setParams };
}
