import './code-block.css';
/**
 * Preformatted text in a named figure. The text may scroll sideways or down, so it is focusable: a
 * keyboard user can scroll it (axe-core's scrollable-region-focusable).
 */
export function CodeBlock({ label, className = 'code-block', children }: { label: string; className?: string; children: string }) {
  return (
    <figure className="labelled-code" aria-label={label}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to be scrolled. */}
      <pre className={className} tabIndex={0}>
        {children}
      </pre>
    </figure>
  );
}
