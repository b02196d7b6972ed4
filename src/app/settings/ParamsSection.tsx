/**
 * Settings sections "Build parameters" (the paper's parameters with their defaults shown, validated),
 * "Summarization prompt" (must contain {context}) and "Appearance" (theme).
 */
import type { AppSettings } from './app-settings';
import { formatCount, formatDecimal } from '../format';
import {
  CONTEXT_PLACEHOLDER,
  defaultParamsText,
  defaultPrompt,
  PARAM_FIELDS,
  type ParamField,
  type SectionProps,
  type SettingsDraft,
} from './draft';
import { Field } from './Field';

/** Most decimals a default is shown with (the threshold's 0.1). */
const DEFAULT_DECIMALS = 2;

function defaultText(field: ParamField): string {
  const value = field.integer
    ? formatCount(field.defaultValue)
    : formatDecimal(field.defaultValue, DEFAULT_DECIMALS);
  // The seed is an identifier, not a quantity: no grouping.
  return field.key === 'seed' ? String(field.defaultValue) : value;
}

/** The "Build parameters" fieldset. */
export function ParamsSection({ draft, update, errorFor, idPrefix }: SectionProps) {
  return (
    <fieldset className="settings-section">
      <legend>Build parameters</legend>
      <p className="settings-note settings-field-wide">
        The defaults are the paper’s. Changes apply to the next build; existing trees keep theirs.
      </p>
      {PARAM_FIELDS.map((field) => (
        <Field
          key={field.key}
          id={`${idPrefix}-${field.key}`}
          label={field.label}
          error={errorFor(`params.${field.key}`)}
          help={
            <>
              <span className="settings-default">
                {field.fromPaper ? 'Paper' : 'Default'}: {defaultText(field)}
              </span>
              {' · '}
              {field.help}
            </>
          }
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode={field.integer ? 'numeric' : 'decimal'}
              step={field.integer ? 1 : 'any'}
              min={field.min}
              max={field.max}
              className="settings-number"
              value={draft.params[field.key]}
              onChange={(e) => {
                const value = e.target.value;
                update((d) => ({ ...d, params: { ...d.params, [field.key]: value } }));
              }}
            />
          )}
        </Field>
      ))}
      <div className="settings-field-wide settings-actions-row">
        <button
          type="button"
          className="settings-button"
          onClick={() => update((d) => ({ ...d, params: defaultParamsText() }))}
        >
          Reset to paper defaults
        </button>
      </div>
    </fieldset>
  );
}

/** The "Summarization prompt" fieldset. */
export function PromptSection({ draft, update, errorFor, idPrefix }: SectionProps) {
  const setPrompt = (patch: Partial<SettingsDraft['prompt']>) =>
    update((d) => ({ ...d, prompt: { ...d.prompt, ...patch } }));
  return (
    <fieldset className="settings-section">
      <legend>Summarization prompt</legend>
      <p className="settings-note settings-field-wide">
        Used when summarizing with an LLM. The default is the paper’s prompt (Appendix D, Table 11).
      </p>
      <Field
        id={`${idPrefix}-system`}
        label="System prompt"
        error={errorFor('prompt.system')}
        className="settings-field-wide"
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={draft.prompt.system}
            onChange={(e) => setPrompt({ system: e.target.value })}
          />
        )}
      </Field>
      <Field
        id={`${idPrefix}-user`}
        label="User prompt"
        error={errorFor('prompt.user')}
        help={
          <>
            Must contain <code>{CONTEXT_PLACEHOLDER}</code>, which is replaced by the texts of the cluster.
          </>
        }
        className="settings-field-wide"
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            value={draft.prompt.user}
            onChange={(e) => setPrompt({ user: e.target.value })}
          />
        )}
      </Field>
      <div className="settings-field-wide settings-actions-row">
        <button
          type="button"
          className="settings-button"
          onClick={() => update((d) => ({ ...d, prompt: defaultPrompt() }))}
        >
          Reset prompt
        </button>
      </div>
    </fieldset>
  );
}

const THEMES: readonly { value: AppSettings['theme']; label: string }[] = [
  { value: 'system', label: 'Match the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The "Appearance" fieldset (colour theme). */
export function AppearanceSection({ draft, update, idPrefix }: SectionProps) {
  return (
    <fieldset className="settings-section">
      <legend>Appearance</legend>
      <div className="settings-radios settings-field-wide">
        {THEMES.map((t) => (
          <div key={t.value} className="settings-check">
            <input
              id={`${idPrefix}-theme-${t.value}`}
              type="radio"
              name={`${idPrefix}-theme`}
              value={t.value}
              checked={draft.theme === t.value}
              onChange={() => update((d) => ({ ...d, theme: t.value }))}
            />
            <label htmlFor={`${idPrefix}-theme-${t.value}`}>{t.label}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
