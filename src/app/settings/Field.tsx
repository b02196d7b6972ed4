/**
 * One labelled control of the Settings dialog with its help text and error message. The control is
 * rendered by the caller, which receives the ids and ARIA attributes that tie it to its label, help and
 * error, so screen readers announce all three.
 */
import type { ReactNode } from 'react';

/** What a field's control must spread onto itself. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/** Props of `Field`. */
export interface FieldProps {
  /** The control's id (its label points at it). */
  id: string;
  /** The label text; end-to-end tests find controls by it, so keep it exact. */
  label: string;
  /** Help below the control. */
  help?: ReactNode;
  /** The error to show, if any. */
  error?: string;
  /** Extra class on the wrapper (e.g. to span the grid's width). */
  className?: string;
  /** Keep the label for assistive technology only (when a legend already shows the same words). */
  hideLabel?: boolean;
  /** Renders the control with the ids and ARIA attributes given. */
  children: (control: ControlProps) => ReactNode;
}

/** A label, a control, its help and its error. */
export function Field({ id, label, help, error, className, hideLabel, children }: FieldProps) {
  const helpId = help === undefined ? undefined : `${id}-help`;
  const errorId = error === undefined ? undefined : `${id}-error`;
  const describedBy = [errorId, helpId].filter(Boolean).join(' ') || undefined;
  const control: ControlProps = { id };
  if (describedBy) control['aria-describedby'] = describedBy;
  if (error !== undefined) control['aria-invalid'] = true;
  return (
    <div className={className ? `settings-field ${className}` : 'settings-field'}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      {children(control)}
      {error !== undefined && (
        <p id={errorId} className="settings-error">
          {error}
        </p>
      )}
      {help !== undefined && (
        <p id={helpId} className="settings-help">
          {help}
        </p>
      )}
    </div>
  );
}

/** Props of {@link HubModelIdField}. */
export interface HubModelIdFieldProps {
  id: string;
  label: string;
  error?: string;
  /** An example id, shown as the placeholder and in the help. */
  example: string;
  /** Help in place of the default ("Owner and name as on huggingface.co, e.g. <example>."). */
  help?: string;
  value: string;
  onChange: (value: string) => void;
}

/** A text field for a Hugging Face model id ("owner/name"), spanning the settings grid. */
export function HubModelIdField({ id, label, error, example, help, value, onChange }: HubModelIdFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      error={error}
      help={help ?? `Owner and name as on huggingface.co, e.g. ${example}.`}
      className="settings-field-wide"
    >
      {(control) => (
        <input
          {...control}
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder={example}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
