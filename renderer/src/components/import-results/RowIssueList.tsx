import type { ReactNode } from 'react';
import { Link } from '../../router.tsx';
import { type RowIssue, SERVICES_API_HINT } from './row-issues.ts';

/** A message with "Services" of "under Services (POST /api/services)" made a link to the Services tab; the words stay the import's. */
function withServicesLink(message: string): ReactNode {
  const match = SERVICES_API_HINT.exec(message);
  if (!match) return message;
  return (
    <>
      {message.slice(0, match.index)}under <Link to="/appointments/services">Services</Link> (POST /api/services)
      {message.slice(match.index + match[0].length)}
    </>
  );
}

/** A row's problems (or warnings), one per line, each in the import's words with the column it starts with shown as a column. */
export function RowIssueList({ issues, label, className = 'row-issue-list' }: { issues: RowIssue[]; label: string; className?: string }) {
  return (
    <ul className={className} aria-label={label}>
      {issues.map((issue, i) => (
        <li key={i}>
          {issue.named && issue.column && (
            <>
              <code className="row-issue-column">{issue.column}</code>{' '}
            </>
          )}
          <span className="row-issue-message">{withServicesLink(issue.message)}</span>
        </li>
      ))}
    </ul>
  );
}
