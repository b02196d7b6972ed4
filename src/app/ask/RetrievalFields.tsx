/**
 * The retrieval part of the Ask form: the mode to retrieve in and the numeric options of that mode, each with
 * its hint or its error.
 */
import type { CSSProperties } from 'react';
import { MODE_LABELS, modeColorVar, RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import type { RetrievalSettings } from '../state/types';
import { fieldBounds, MODE_FIELDS, type FieldSpec } from './retrieval-form';
import type { RetrievalForm } from './useRetrievalForm';

/** Props of `ModePicker`. */
interface ModePickerProps {
  idPrefix: string;
  mode: RetrievalMode;
  onChoose(mode: RetrievalMode): void;
}

/** The three retrieval modes as a radio group. */
export function ModePicker({ idPrefix, mode: chosen, onChoose }: ModePickerProps) {
  return (
    <fieldset className="ask-modes" role="radiogroup" aria-labelledby={`${idPrefix}-modes`}>
      <legend className="ask-label" id={`${idPrefix}-modes`}>
        Retrieval mode
      </legend>
      <div className="ask-mode-options">
        {RETRIEVAL_MODES.map((mode) => (
          <label
            key={mode}
            className="ask-mode"
            data-mode={mode}
            style={{ '--mode': modeColorVar(mode) } as CSSProperties}
          >
            <input
              type="radio"
              name={`${idPrefix}-mode`}
              value={mode}
              checked={chosen === mode}
              onChange={() => onChoose(mode)}
            />
            <span className="mode-dot" aria-hidden="true" />
            {MODE_LABELS[mode]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Props of `ModeOptions`. */
interface ModeOptionsProps {
  idPrefix: string;
  settings: RetrievalSettings;
  maxLayer: number;
  form: RetrievalForm;
}

/** The numeric options of the chosen mode. */
export function ModeOptions({ idPrefix, settings, maxLayer, form }: ModeOptionsProps) {
  return (
    <div className="ask-options" data-mode={settings.mode}>
      {MODE_FIELDS[settings.mode].map((spec) => (
        <OptionField
          key={spec.field}
          spec={spec}
          idPrefix={idPrefix}
          value={form.valueOf(spec.field)}
          error={form.errorOf(spec.field)}
          bounds={fieldBounds(spec.field, settings, maxLayer)}
          inputRef={(el) => form.register(spec.field, el)}
          onChange={(raw) => form.editField(spec.field, raw)}
          onBlur={() => form.settleField(spec.field)}
        />
      ))}
    </div>
  );
}

interface OptionFieldProps {
  spec: FieldSpec;
  idPrefix: string;
  value: string;
  error: string | undefined;
  bounds: { min: number; max?: number };
  inputRef(el: HTMLInputElement | null): void;
  onChange(raw: string): void;
  onBlur(): void;
}

/** One numeric option: a short visible label, a scoped accessible name, a hint and its error. */
function OptionField({ spec, idPrefix, value, error, bounds, inputRef, onChange, onBlur }: OptionFieldProps) {
  const id = `${idPrefix}-${spec.field}`;
  return (
    <div className="ask-option" data-invalid={error !== undefined || undefined}>
      <label className="ask-option-label" htmlFor={id}>
        {spec.label}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="number"
        inputMode="numeric"
        step={1}
        min={bounds.min}
        max={bounds.max}
        value={value}
        aria-label={spec.name === spec.label ? undefined : spec.name}
        aria-invalid={error !== undefined || undefined}
        aria-describedby={`${id}-note`}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      <p className={error === undefined ? 'ask-option-hint' : 'ask-field-error'} id={`${id}-note`}>
        {error ?? spec.hint}
      </p>
    </div>
  );
}
