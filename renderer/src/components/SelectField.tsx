import { type ReactNode, useId } from 'react';

/** A select's choices as [value, label] pairs. */
export type Options = readonly (readonly [value: string, label: string])[];

/**
 * A label beside a select. The label points at the select (for) instead of wrapping it, so
 * its accessible name is just the label, not the label plus every option.
 */
export function SelectField({
  label,
  value,
  onChange,
  options = [],
  children,
}: {
  label: string;
  value: string | number;
  onChange(value: string): void;
  options?: Options;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <span className="inline-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
        {children}
      </select>
    </span>
  );
}
