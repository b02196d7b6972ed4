/**
 * The Settings dialog: a native modal <dialog> named "Settings" whose sections edit a draft of the
 * settings; "Save" validates it, hands the new settings to `onSave` (the caller persists them) and closes once
 * they are stored; when storing fails (a full quota) it stays open with the edits and says why.
 * Nothing typed is lost silently: "Close", Escape and a click outside ask first when the draft has unsaved
 * edits (Save, Discard, Keep editing), and if the browser closes the dialog anyway (a second Escape cannot
 * be stopped) the edits are kept and shown again the next time it opens. Presentational: the connection
 * test is injected.
 */
import { useEffect, useId, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { AppSettings } from './app-settings';
import { errorMessage } from '../state/messages';
import {
  draftErrors,
  draftFromSettings,
  isDraftDirty,
  usesBuiltin,
  validateDraft,
  type SectionProps,
  type SettingsDraft,
} from './draft';
import { EmbeddingSection } from './EmbeddingSection';
import type { TestConnection } from './EndpointFields';
import { BuiltinSection } from './BuiltinSection';
import { AnsweringSection, EmbeddingsEndpointSection, SummarizationSection } from './LlmSections';
import { AppearanceSection, ParamsSection, PromptSection } from './ParamsSection';
import './settings.css';

export type { ConnectionResult, EndpointPurpose, TestConnection } from './EndpointFields';

/** Props of `SettingsDialog`. */
export interface SettingsDialogProps {
  /** Shown as a modal while true; the draft starts from `settings` each time it opens. */
  open: boolean;
  settings: AppSettings;
  /**
   * Called with valid settings when the user saves; `onClose` follows once it resolves. When it rejects, the
   * dialog stays open with the user's edits and shows the error's message.
   */
  onSave(next: AppSettings): Promise<void> | void;
  /** Called on "Close", Escape, and after a save. */
  onClose(): void;
  /**
   * Tests an endpoint with one small request. The second argument says whether it is a chat endpoint
   * (summaries, answers) or an embeddings endpoint; a one-argument function is accepted too.
   */
  testConnection: TestConnection;
  /** This page's origin, shown in the Ollama hint. Default `location.origin`. */
  pageOrigin?: string;
  /** Shown after the editable sections: what is stored and kept offline (it acts at once, not on Save). */
  storage?: ReactNode;
}

/** The Settings dialog; see the module comment. */
export function SettingsDialog(props: SettingsDialogProps) {
  const { open, onClose, settings } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  // The native dialog also closes itself (a second Escape cannot be prevented): tell the caller then,
  // but not when the close came from `open` turning false.
  const openRef = useRef(open);
  const headingId = useId();
  /** The draft being edited; kept across a close while it has unsaved edits. */
  const [draft, setDraft] = useState<SettingsDraft>();
  const draftRef = useRef(draft);
  draftRef.current = draft;
  /** The dialog opened with edits kept from last time. */
  const [kept, setKept] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const dirty = draft !== undefined && isDraftDirty(draft, settings);

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

  // Opening starts from the saved settings, unless edits were kept from last time.
  useEffect(() => {
    if (!open) return;
    setConfirming(false);
    const current = draftRef.current;
    const keep = current !== undefined && isDraftDirty(current, settings);
    setKept(keep);
    setDraft(keep ? current : draftFromSettings(settings));
    // Only when the dialog opens: later changes of `settings` must not overwrite what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const discard = () => {
    setDraft(undefined);
    setKept(false);
    setConfirming(false);
    onClose();
  };
  /** Close, Escape, a click outside: close when nothing is unsaved, else ask. */
  const requestClose = () => {
    if (confirming) setConfirming(false);
    else if (dirty) setConfirming(true);
    else discard();
  };
  const onBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    // A click on the backdrop targets the dialog element itself, outside its box.
    const dialog = dialogRef.current;
    if (!dialog || event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) requestClose();
  };

  return (
    <dialog
      ref={dialogRef}
      className="settings-dialog"
      aria-labelledby={headingId}
      onClick={onBackdrop}
      onCancel={(e) => {
        e.preventDefault();
        requestClose();
      }}
      onClose={() => {
        // Closed by the browser itself: unsaved edits stay in `draft` for the next opening.
        if (openRef.current) {
          setConfirming(false);
          onClose();
        }
      }}
    >
      {open && draft && (
        <SettingsForm
          {...props}
          headingId={headingId}
          draft={draft}
          setDraft={setDraft}
          kept={kept}
          confirming={confirming}
          onRequestClose={requestClose}
          onDiscard={discard}
          onKeepEditing={() => setConfirming(false)}
          onSaved={() => {
            setDraft(undefined);
            setKept(false);
            setConfirming(false);
          }}
        />
      )}
    </dialog>
  );
}

interface FormProps extends SettingsDialogProps {
  headingId: string;
  draft: SettingsDraft;
  setDraft(change: (draft: SettingsDraft | undefined) => SettingsDraft | undefined): void;
  kept: boolean;
  confirming: boolean;
  onRequestClose(): void;
  onDiscard(): void;
  onKeepEditing(): void;
  onSaved(): void;
}

function SettingsForm({
  storage,
  onSave,
  onClose,
  testConnection,
  pageOrigin,
  headingId,
  draft,
  setDraft,
  kept,
  confirming,
  onRequestClose,
  onDiscard,
  onKeepEditing,
  onSaved,
}: FormProps) {
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const promptRef = useRef<HTMLDivElement>(null);
  const [submitted, setSubmitted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  /** Why the last save could not be stored (the edits stay). */
  const [saveError, setSaveError] = useState<string>();
  const errors = useMemo(() => draftErrors(draft, submitted), [draft, submitted]);
  const errorCount = Object.keys(errors).length;

  // After a failed save, take the user to the first field that needs attention.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);
  useEffect(() => {
    if (confirming) promptRef.current?.querySelector<HTMLElement>('button')?.focus();
  }, [confirming]);

  const section: SectionProps = {
    draft,
    update: (change) => setDraft((d) => (d ? change(d) : d)),
    errorFor: (key) => errors[key],
    idPrefix,
  };
  const llm = {
    ...section,
    testConnection,
    pageOrigin: pageOrigin ?? globalThis.location?.origin ?? 'http://localhost:5173',
  };
  const save = async () => {
    setSubmitted(true);
    const result = validateDraft(draft);
    if (!result.ok) {
      onKeepEditing();
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    setSaveError(undefined);
    try {
      await onSave(result.settings);
    } catch (error) {
      onKeepEditing();
      setSaveError(
        `The settings could not be saved. ${errorMessage(error)} Your changes are still here: save again ` +
          'once that is fixed.',
      );
      return;
    } finally {
      setSaving(false);
    }
    onSaved();
    onClose();
  };

  return (
    <form
      ref={formRef}
      className="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <header className="settings-header">
        <h2 id={headingId}>Settings</h2>
        <button type="button" className="settings-button" onClick={onRequestClose}>
          Close
        </button>
      </header>
      {kept && (
        <p className="settings-kept" role="status">
          Your unsaved changes from before are still here. Save them, or{' '}
          <button type="button" className="settings-link" onClick={onDiscard}>
            discard them
          </button>
          .
        </p>
      )}
      <div className="settings-body" inert={confirming || undefined}>
        <EmbeddingSection {...section} />
        <SummarizationSection {...llm} />
        <AnsweringSection {...llm} />
        {usesBuiltin(draft) && <BuiltinSection {...section} />}
        <EmbeddingsEndpointSection {...llm} />
        <ParamsSection {...section} />
        <PromptSection {...section} />
        <AppearanceSection {...section} />
        {storage}
      </div>
      {confirming && (
        <div
          ref={promptRef}
          className="settings-confirm"
          role="alertdialog"
          aria-label="Unsaved changes"
          aria-describedby={`${idPrefix}-confirm`}
        >
          <p id={`${idPrefix}-confirm`}>You changed settings without saving them.</p>
          <div className="settings-confirm-actions">
            <button
              type="button"
              className="settings-button settings-button-primary"
              onClick={() => void save()}
            >
              Save changes
            </button>
            <button type="button" className="settings-button" onClick={onDiscard}>
              Discard changes
            </button>
            <button type="button" className="settings-button" onClick={onKeepEditing}>
              Keep editing
            </button>
          </div>
        </div>
      )}
      <footer className="settings-footer">
        <p role="alert" className="settings-footer-message">
          {submitted && errorCount > 0
            ? `${errorCount === 1 ? 'One field needs' : `${errorCount} fields need`} attention before saving.`
            : (saveError ?? '')}
        </p>
        <button type="submit" className="settings-button settings-button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </footer>
    </form>
  );
}
