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
  /** The hint steps aside while there is a problem (the problem says what to do instead). */
  hintOrProblem?: boolean;
}

/** A form field: label, control, problem and hint. The control gets its id and aria from `children`. */
export function FormField({
  id,
  label,
  hint,
  problem,
  className = 'field',
  hintOrProblem = false,
  children,
}: FieldProps & { children(control: ControlProps): ReactNode }) {
  const hintShown = hint && !(hintOrProblem && problem);
  const describedBy = [problem ? `${id}-problem` : '', hintShown ? `${id}-hint` : ''].filter(Boolean).join(' ');
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
      {hintShown && (
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
  hintOrProblem,
  inputClassName,
  value,
  onChange,
  ...input
}: FieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'> & {
    /** The input's own class, e.g. mono. */
    inputClassName?: string;
    value: string;
    onChange(value: string): void;
  }) {
  return (
    <FormField id={id} label={label} hint={hint} problem={problem} className={className} hintOrProblem={hintOrProblem}>
      {(control) => <input {...control} className={inputClassName} value={value} onChange={(e) => onChange(e.target.value)} {...input} />}
    </FormField>
  );
}
