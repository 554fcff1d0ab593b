import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
} from 'react';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  /** The refusal to show under the field, tied to it for screen readers. */
  error?: string;
  hint?: ReactNode;
};

/** A control's id and what ties its hint and its refusal to it for screen readers. */
function useDescribed(hint: ReactNode, error: string | undefined) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': described || undefined,
  };
}

/** What every field shows around its control: the label, the hint and the inline error. */
function FieldFrame(props: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  const { id, label, hint, error, children } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="error">
          {error}
        </small>
      )}
    </div>
  );
}

/** A labelled input with its hint and its inline error. */
export function Field({ label, error, hint, ...input }: FieldProps) {
  const described = useDescribed(hint, error);
  return (
    <FieldFrame id={described.id} label={label} hint={hint} error={error}>
      <input {...described} {...input} />
    </FieldFrame>
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
};

/** A labelled text box of several lines with its hint and its inline error. */
export function TextAreaField({ label, error, hint, ...textarea }: TextAreaFieldProps) {
  const described = useDescribed(hint, error);
  return (
    <FieldFrame id={described.id} label={label} hint={hint} error={error}>
      <textarea {...described} {...textarea} />
    </FieldFrame>
  );
}

type SelectProps = {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  defaultValue?: string;
  error?: string;
  /** Said under the select, tied to it for screen readers (what the choice will do). */
  hint?: ReactNode;
  /** Told each new choice (the select stays uncontrolled). */
  onChange?: (value: string) => void;
};

export function SelectField(props: SelectProps) {
  const { label, name, options, defaultValue, error, hint, onChange } = props;
  const described = useDescribed(hint, error);
  return (
    <FieldFrame id={described.id} label={label} hint={hint} error={error}>
      <select
        {...described}
        name={name}
        defaultValue={defaultValue}
        onChange={onChange && ((event) => onChange(event.currentTarget.value))}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
