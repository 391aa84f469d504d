import type { InputHTMLAttributes, ReactNode } from 'react';

/** What a field's control needs to be named by its label and described by its problem and hint. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The problem found with the value (before sending or by the server), shown under the control. */
  problem?: string | undefined;
  /** "field" plus e.g. a class that makes it wide. */
  className?: string;
}

/** A form field: label, control, problem and hint. The control gets its id and aria from `children`. */
export function FormField({
  id,
  label,
  hint,
  problem,
  className = 'field',
  children,
}: FieldProps & { children(control: ControlProps): ReactNode }) {
  const describedBy = [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy || undefined })}
      {problem && (
        <span id={`${id}-problem`} className="field-problem">
          {problem}
        </span>
      )}
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}

/** A FormField holding a one-line text input. */
export function TextField({
  id,
  label,
  hint,
  problem,
  className,
  value,
  onChange,
  ...input
}: FieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'> & {
    value: string;
    onChange(value: string): void;
  }) {
  return (
    <FormField id={id} label={label} hint={hint} problem={problem} className={className}>
      {(control) => <input {...control} value={value} onChange={(e) => onChange(e.target.value)} {...input} />}
    </FormField>
  );
}
