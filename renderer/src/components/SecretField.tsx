import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CopyButton } from './CopyButton.tsx';

/** A secret to copy: read-only (focus selects it all), with Copy and any further buttons. */
export function SecretField({
  label,
  secret,
  copyLabel,
  hint,
  children,
}: {
  label: string;
  secret: string;
  copyLabel: string;
  hint?: ReactNode;
  /** More buttons after Copy. */
  children?: ReactNode;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <span className="secret-row">
        <input readOnly value={secret} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <CopyButton text={secret} label={copyLabel} />
        {children}
      </span>
      {hint && <span className="field-hint">{hint}</span>}
    </label>
  );
}

/**
 * What was just created, with the secret it came with (shown only now): its heading takes the
 * focus, so a screen reader reads it; `actions` stand before Done.
 */
export function CreatedPanel({
  title,
  actions,
  onDone,
  children,
}: {
  title: ReactNode;
  actions: ReactNode;
  onDone(): void;
  children: ReactNode;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="new-key" aria-labelledby={id}>
      <h3 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      {children}
      <div className="row-actions">
        {actions}
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
