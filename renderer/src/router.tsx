import { type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { create } from 'zustand';

/**
 * A small client-side router over the History API: the address is /tasks, /tasks/<uuid>,
 * /settings… (the server answers every such path with the GUI). Query parameters hold page
 * state such as filters, so reload, back and shared links keep it.
 */
interface LocationStore {
  path: string;
  search: string;
  navigate(to: string, options?: { replace?: boolean }): void;
}

const current = () => ({ path: window.location.pathname, search: window.location.search });

export const useLocation = create<LocationStore>()((set) => ({
  ...current(),
  navigate(to, options = {}) {
    const url = new URL(to, window.location.href);
    if (url.pathname + url.search === window.location.pathname + window.location.search) return;
    if (options.replace) window.history.replaceState(null, '', url.pathname + url.search);
    else window.history.pushState(null, '', url.pathname + url.search);
    set({ path: url.pathname, search: url.search });
    if (!options.replace) window.scrollTo(0, 0);
  },
}));

window.addEventListener('popstate', () => useLocation.setState(current()));

export function navigate(to: string, options?: { replace?: boolean }): void {
  useLocation.getState().navigate(to, options);
}

/** "/tasks/:uuid" against "/tasks/abc" → { uuid: "abc" }; null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const actual = have[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}

/** A whole positive number from a query parameter (page, per_page), or the fallback. */
export function positiveInt(text: string | null, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function useSearchParams(): [
  URLSearchParams,
  (changes: Record<string, string | number | null | undefined>, options?: { replace?: boolean }) => void,
] {
  const { path, search } = useLocation();
  const params = new URLSearchParams(search);
  const update = (changes: Record<string, string | number | null | undefined>, options?: { replace?: boolean }) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === undefined || value === '') next.delete(name);
      else next.set(name, String(value));
    }
    const text = next.toString();
    navigate(`${path}${text ? `?${text}` : ''}`, options);
  };
  return [params, update];
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; children: ReactNode };

export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={handle} {...rest}>
      {children}
    </a>
  );
}
