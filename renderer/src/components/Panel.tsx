import { type HTMLAttributes, type ReactNode, useId } from 'react';

/**
 * A page section titled by its heading (section.panel named by its h2). With `actions`, the
 * heading and the actions share a row (panel-header).
 */
export function Panel({
  title,
  actions,
  className = 'panel',
  children,
  ...section
}: Omit<HTMLAttributes<HTMLElement>, 'title'> & { title: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  const id = useId();
  const heading = <h2 id={id}>{title}</h2>;
  return (
    <section className={className} aria-labelledby={id} {...section}>
      {actions === undefined ? (
        heading
      ) : (
        <div className="panel-header">
          {heading}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
