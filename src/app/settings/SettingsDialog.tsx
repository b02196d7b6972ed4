/**
 * The Settings dialog: a native modal <dialog> named "Settings" whose sections edit a draft of the
 * settings; "Save" validates it, hands the new settings to `onSave` (the caller persists them) and closes;
 * "Close" and Escape close without saving. Presentational: the connection test is injected.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AppSettings } from '../settings';
import {
  draftErrors,
  draftFromSettings,
  validateDraft,
  type SectionProps,
  type SettingsDraft,
} from './draft';
import { EmbeddingSection } from './EmbeddingSection';
import type { TestConnection } from './EndpointFields';
import { AnsweringSection, EmbeddingsEndpointSection, SummarizationSection } from './LlmSections';
import { AppearanceSection, ParamsSection, PromptSection } from './ParamsSection';
import './settings.css';

export type { ConnectionResult, EndpointPurpose, TestConnection } from './EndpointFields';

/** Props of `SettingsDialog`. */
export interface SettingsDialogProps {
  /** Shown as a modal while true; the draft starts from `settings` each time it opens. */
  open: boolean;
  settings: AppSettings;
  /** Called with valid settings when the user saves; `onClose` follows. */
  onSave(next: AppSettings): void;
  /** Called on "Close", Escape, and after a save. */
  onClose(): void;
  /**
   * Tests an endpoint with one small request. The second argument says whether it is a chat endpoint
   * (summaries, answers) or an embeddings endpoint; a one-argument function is accepted too.
   */
  testConnection: TestConnection;
  /** This page's origin, shown in the Ollama hint. Default `location.origin`. */
  pageOrigin?: string;
}

/** The Settings dialog; see the module comment. */
export function SettingsDialog(props: SettingsDialogProps) {
  const { open, onClose } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  // The native dialog also closes itself (a second Escape cannot be prevented): tell the caller then,
  // but not when the close came from `open` turning false.
  const openRef = useRef(open);
  const headingId = useId();

  useEffect(() => {
    openRef.current = open;
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('.settings-body select, .settings-body input')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      className="settings-dialog"
      aria-labelledby={headingId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClose={() => {
        if (openRef.current) onClose();
      }}
    >
      {open && <SettingsForm {...props} headingId={headingId} />}
    </dialog>
  );
}

function SettingsForm({
  settings,
  onSave,
  onClose,
  testConnection,
  pageOrigin,
  headingId,
}: SettingsDialogProps & { headingId: string }) {
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<SettingsDraft>(() => draftFromSettings(settings));
  const [submitted, setSubmitted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const errors = useMemo(() => draftErrors(draft, submitted), [draft, submitted]);
  const errorCount = Object.keys(errors).length;

  // After a failed save, take the user to the first field that needs attention.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);

  const section: SectionProps = {
    draft,
    update: (change) => setDraft((d) => change(d)),
    errorFor: (key) => errors[key],
    idPrefix,
  };
  const llm = {
    ...section,
    testConnection,
    pageOrigin: pageOrigin ?? globalThis.location?.origin ?? 'http://localhost:5173',
  };

  return (
    <form
      ref={formRef}
      className="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setSubmitted(true);
        const result = validateDraft(draft);
        if (!result.ok) {
          setAttempt((n) => n + 1);
          return;
        }
        onSave(result.settings);
        onClose();
      }}
    >
      <header className="settings-header">
        <h2 id={headingId}>Settings</h2>
        <button type="button" className="settings-button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="settings-body">
        <EmbeddingSection {...section} />
        <SummarizationSection {...llm} />
        <AnsweringSection {...llm} />
        <EmbeddingsEndpointSection {...llm} />
        <ParamsSection {...section} />
        <PromptSection {...section} />
        <AppearanceSection {...section} />
      </div>
      <footer className="settings-footer">
        <p role="alert" className="settings-footer-message">
          {submitted && errorCount > 0
            ? `${errorCount === 1 ? 'One field needs' : `${errorCount} fields need`} attention before saving.`
            : ''}
        </p>
        <button type="submit" className="settings-button settings-button-primary">
          Save
        </button>
      </footer>
    </form>
  );
}
