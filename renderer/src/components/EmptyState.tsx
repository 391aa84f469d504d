import type { ReactNode } from 'react';
import { Link } from '../router.tsx';

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <svg className="empty-icon" viewBox="0 0 48 48" aria-hidden="true">
        <rect x="6" y="6" width="14" height="14" rx="3" />
        <rect x="28" y="6" width="14" height="14" rx="3" />
        <rect x="6" y="28" width="14" height="14" rx="3" />
        <path d="M28 28h5v5h-5zM37 28h5v5h-5zM28 37h5v5h-5zM37 37h5v5h-5z" />
      </svg>
      <h2 className="empty-title">{title}</h2>
      {children && <div className="empty-text">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}

/** Nothing to show because of a choice the user made (filters, a page), with the button that undoes it. */
export function ResetEmptyState({ title, reset, onReset }: { title: string; reset: string; onReset(): void }) {
  return (
    <EmptyState
      title={title}
      action={
        <button type="button" className="button" onClick={onReset}>
          {reset}
        </button>
      }
    />
  );
}

/** A page number past the last page (e.g. after deleting the last item of the last page). */
export function NoSuchPage({ page, onFirstPage }: { page: number; onFirstPage(): void }) {
  return <ResetEmptyState title={`There is no page ${page}`} reset="Go to the first page" onReset={onFirstPage} />;
}

/** Nothing here yet, with a link to the page where it starts (`label`, e.g. "Go to Imports"). */
export function GoToEmptyState({ title, to, label, children }: { title: string; to: string; label: string; children: ReactNode }) {
  return (
    <EmptyState
      title={title}
      action={
        <Link to={to} className="button button-primary">
          {label}
        </Link>
      }
    >
      {children}
    </EmptyState>
  );
}
