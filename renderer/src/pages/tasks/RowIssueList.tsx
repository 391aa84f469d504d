import type { ReactNode } from 'react';
import { Link } from '../../router.tsx';
import { type RowIssue, SERVICES_API_HINT } from './row-issues.ts';

/** A message with "under Services (POST /api/services)" made a link to the Services tab. */
function withServicesLink(message: string): ReactNode {
  const match = SERVICES_API_HINT.exec(message);
  if (!match) return message;
  return (
    <>
      {message.slice(0, match.index)}under <Link to="/appointments/services">Services</Link>
      {message.slice(match.index + match[0].length)}
    </>
  );
}

/** A row's problems, one per line, each naming its column. */
export function RowIssueList({ issues, label }: { issues: RowIssue[]; label: string }) {
  return (
    <ul className="row-issue-list" aria-label={label}>
      {issues.map((issue, i) => (
        <li key={i}>
          {issue.column && <code className="row-issue-column">{issue.column}</code>}{' '}
          <span className="row-issue-message">{withServicesLink(issue.message)}</span>
        </li>
      ))}
    </ul>
  );
}
