import { useEffect, useState } from 'react';
import { fieldProblem } from '../api/describe-error.ts';
import { useSearchParams } from '../router.tsx';

export interface TextFilter<K extends string> {
  key: K;
  label: string;
  size: number;
  placeholder?: string;
  type?: 'search';
}

/** A value that follows `value` once it stops changing, so every key press is not a request. */
function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Typed filters of a list: start from the address, apply (trimmed) after typing stops, and a
 * changed filter goes back to the first page. `idPrefix` starts the ids of their problems.
 */
export interface TextFilterState<K extends string = string> {
  filters: readonly TextFilter<K>[];
  /** As typed. */
  values: Record<K, string>;
  /** Trimmed, once typing stopped: what the request sends. */
  applied: Record<K, string>;
  active: boolean;
  change(key: K, value: string): void;
  /** The filter names as the API's field problems name them ("job reference id"). */
  fieldNames: string[];
  idPrefix: string;
}

export function useTextFilters<K extends string>(filters: readonly TextFilter<K>[], idPrefix: string): TextFilterState<K> {
  const [params, setParams] = useSearchParams();
  const [values, setValues] = useState(() => Object.fromEntries(filters.map((f) => [f.key, params.get(f.key) ?? ''])) as Record<K, string>);
  const applied = useDebounced(Object.fromEntries(filters.map((f) => [f.key, values[f.key].trim()])) as Record<K, string>);
  const change = (key: K, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setParams({ page: null });
  };
  const active = filters.some((f) => applied[f.key] !== '');
  const fieldNames = filters.map((f) => f.key.replace(/_/g, ' '));
  return { filters, values, applied, active, change, fieldNames, idPrefix };
}

/** The filter inputs; a problem the server found with one shows under it. */
export function TextFilters({ state, error }: { state: TextFilterState; error: unknown }) {
  return (
    <div className="toolbar list-filters">
      {state.filters.map((f) => {
        const problem = fieldProblem(error, f.key);
        const problemId = `${state.idPrefix}-${f.key}-problem`;
        return (
          <span key={f.key} className="filter-field">
            <label className="inline-field">
              {f.label}
              <input
                type={f.type}
                value={state.values[f.key]}
                onChange={(e) => state.change(f.key, e.target.value)}
                size={f.size}
                placeholder={f.placeholder}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
              />
            </label>
            {problem && (
              <span id={problemId} className="field-problem">
                {problem}
              </span>
            )}
          </span>
        );
      })}
    </div>
  );
}
