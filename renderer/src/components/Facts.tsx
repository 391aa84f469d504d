import type { ReactNode } from 'react';

/**
 * Labelled values in a grid (dl.facts), in the order given; `wide` names the facts that take a
 * whole row.
 */
export function Facts({
  facts,
  wide = [],
  className = 'facts',
}: {
  facts: Record<string, ReactNode>;
  wide?: readonly string[];
  className?: string;
}) {
  return (
    <dl className={className}>
      {Object.entries(facts).map(([label, value]) => (
        <div key={label} className={wide.includes(label) ? 'fact fact-wide' : 'fact'}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
