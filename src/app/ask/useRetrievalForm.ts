/**
 * The Ask form's retrieval options as the user types them: a value that is not (yet) valid stays a draft with its
 * error, a valid one goes to the settings; before a run, the first invalid option takes the focus.
 */
import { useRef, useState } from 'react';
import { MODE_LABELS, type RetrievalMode } from '../modes';
import type { RetrievalSettings } from '../state/types';
import { fieldError, MODE_FIELDS, settingsErrors, withField, type RetrievalField } from './retrieval-form';

type Drafts = Partial<Record<RetrievalField, string>>;

/** The options' drafts, errors and edits; see the module comment. */
export function useRetrievalForm(
  settings: RetrievalSettings,
  maxLayer: number,
  onSettingsChange: (next: RetrievalSettings) => void,
) {
  const fieldRefs = useRef(new Map<RetrievalField, HTMLInputElement>());
  const [formError, setFormError] = useState<string>();
  // What the user typed into each option while it is not (yet) a valid value; the settings hold valid ones.
  const [drafts, setDrafts] = useState<Drafts>({});

  const valueOf = (field: RetrievalField) => drafts[field] ?? String(settings[field]);
  const errorOf = (field: RetrievalField) => fieldError(field, valueOf(field), settings, maxLayer);

  const chooseMode = (mode: RetrievalMode) => {
    setDrafts({});
    setFormError(undefined);
    onSettingsChange({ ...settings, mode });
  };

  const editField = (field: RetrievalField, raw: string) => {
    setFormError(undefined);
    if (fieldError(field, raw, settings, maxLayer) !== undefined) {
      setDrafts((d) => ({ ...d, [field]: raw }));
      return;
    }
    // The depth's bounds follow the start layer, so a stale draft of it would be checked against old bounds.
    setDrafts(({ [field]: _own, traversalLayers, ...rest }) =>
      field === 'traversalStartLayer' || field === 'traversalLayers' ? rest : { ...rest, traversalLayers },
    );
    onSettingsChange(withField(settings, field, Number(raw.trim())));
  };

  /** On leaving an option: a draft that has become valid is dropped (the settings hold it). */
  const settleField = (field: RetrievalField) => {
    if (drafts[field] !== undefined && errorOf(field) === undefined) {
      setDrafts(({ [field]: _dropped, ...rest }) => rest);
    }
  };

  const register = (field: RetrievalField, el: HTMLInputElement | null) => {
    if (el === null) fieldRefs.current.delete(field);
    else fieldRefs.current.set(field, el);
  };

  /**
   * True when the options let the run go: otherwise the chosen mode's first invalid option takes the focus, or,
   * for a comparison, the form says which other mode cannot run.
   */
  const readyFor = (kind: 'ask' | 'compare'): boolean => {
    const invalid = MODE_FIELDS[settings.mode].find((spec) => errorOf(spec.field) !== undefined);
    if (invalid !== undefined) {
      fieldRefs.current.get(invalid.field)?.focus();
      return false;
    }
    if (kind === 'compare') {
      const other = settingsErrors(settings, maxLayer)[0];
      if (other !== undefined) {
        setFormError(
          `${MODE_LABELS[other.mode]} cannot run: ${other.spec.label} — ${other.message} Select that mode to change it.`,
        );
        return false;
      }
    }
    return true;
  };

  return { formError, valueOf, errorOf, chooseMode, editField, settleField, register, readyFor };
}

/** What `useRetrievalForm` gives the form. */
export type RetrievalForm = ReturnType<typeof useRetrievalForm>;
