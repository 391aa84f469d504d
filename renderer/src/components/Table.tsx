import type { ReactNode } from 'react';

/** A column heading: its text, or its text and the header cell's class. */
export type Heading = ReactNode | { header: ReactNode; className?: string | undefined };

function isHeading(heading: Heading): heading is { header: ReactNode; className?: string } {
  return typeof heading === 'object' && heading !== null && 'header' in heading;
}

/**
 * A table that scrolls sideways on a narrow window, named by `label`, with one header row;
 * the body rows are the children.
 */
export function Table({
  label,
  headings,
  className = 'table',
  scrollClassName = 'table-scroll',
  busy,
  children,
}: {
  label: string;
  headings: readonly Heading[];
  className?: string;
  scrollClassName?: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={scrollClassName}>
      <table className={className} aria-label={label} aria-busy={busy}>
        <thead>
          <tr>
            {headings.map((heading, i) =>
              isHeading(heading) ? (
                <th key={i} scope="col" className={heading.className}>
                  {heading.header}
                </th>
              ) : (
                <th key={i} scope="col">
                  {heading}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The heading of a column of row buttons: read by screen readers, not shown. */
export const ACTIONS_HEADING = <span className="visually-hidden">Actions</span>;
