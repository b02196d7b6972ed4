/**
 * Settings sections for the user's endpoints: "Summarization" (LLM or the built-in extractive
 * summariser), "Answering" (the same endpoint or another) and "Embeddings endpoint (optional)".
 */
import { useId } from 'react';
import { isConfigured, type LlmSource } from './app-settings';
import { withSummarizerEndpoint, withSummarizerLlm, type SectionProps, type SettingsDraft } from './draft';
import { EndpointFields, type TestConnection } from './EndpointFields';
import { Field } from './Field';

/** Props of the endpoint sections. */
export interface LlmSectionProps extends SectionProps {
  testConnection: TestConnection;
  /** This page's origin, for the Ollama hint (OLLAMA_ORIGINS). */
  pageOrigin: string;
}

const CHAT_MODEL_EXAMPLES = 'e.g. gpt-4o-mini, llama3.2, claude-3-5-haiku-latest';

function errorsOf(errorFor: SectionProps['errorFor'], prefix: string) {
  return { baseUrl: errorFor(`${prefix}.baseUrl`), model: errorFor(`${prefix}.model`) };
}

/** Where popular servers listen, and what each needs before a web page may call it. */
function EndpointExamples({ pageOrigin }: { pageOrigin: string }) {
  return (
    <div className="settings-examples settings-field-wide">
      <p>Examples:</p>
      <ul>
        <li>
          OpenAI <code>https://api.openai.com/v1</code>
        </li>
        <li>
          Ollama <code>http://localhost:11434/v1</code> (start it with{' '}
          <code>OLLAMA_ORIGINS={pageOrigin}</code>)
        </li>
        <li>
          LM Studio <code>http://localhost:1234/v1</code> (enable CORS in its server settings)
        </li>
        <li>
          Anthropic <code>https://api.anthropic.com</code> (protocol Anthropic)
        </li>
      </ul>
    </div>
  );
}

function Checkbox({
  id,
  label,
  checked,
  onChange,
  describedBy,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  describedBy: string;
}) {
  return (
    <div className="settings-check settings-field-wide">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

const LLM_OPTIONS: readonly { value: LlmSource; label: string }[] = [
  { value: 'endpoint', label: 'An LLM endpoint (set up below)' },
  { value: 'builtin', label: 'Built-in model (runs in this browser)' },
];

/** A picker between the user's endpoint and the built-in model. */
function LlmPicker({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: LlmSource;
  onChange(value: LlmSource): void;
}) {
  return (
    <Field id={id} label={label} className="settings-field-wide">
      {(control) => (
        <select {...control} value={value} onChange={(e) => onChange(e.target.value as LlmSource)}>
          {LLM_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function summarizationNote(summarizer: SettingsDraft['summarizer']): string {
  const { useLlm, chosen, endpoint, llm } = summarizer;
  if (useLlm && llm === 'builtin') {
    return (
      'Each cluster is summarized by the built-in model (set up below) with the paper’s prompt, in this ' +
      'browser: nothing is sent anywhere.'
    );
  }
  if (useLlm) {
    return (
      'Each cluster is summarized by the model below (the paper used gpt-3.5-turbo). Cluster texts are sent to that endpoint.' +
      (chosen ? '' : ' Ticked because an endpoint is filled in; untick to keep summaries extractive.')
    );
  }
  if (isConfigured(endpoint)) {
    return 'Unchecked: the built-in extractive summarizer writes each summary from the cluster’s most central sentences; the endpoint below is used for answers only.';
  }
  return 'The built-in extractive summarizer writes each summary from the cluster’s most central sentences. No LLM is called and nothing leaves the browser. Fill in an endpoint below, or choose the built-in model, to have an LLM write them.';
}

/** The "Summarization" fieldset. */
export function SummarizationSection({
  draft,
  update,
  errorFor,
  idPrefix,
  testConnection,
  pageOrigin,
}: LlmSectionProps) {
  const noteId = useId();
  const { useLlm, endpoint, llm } = draft.summarizer;
  const setSummarizer = (patch: Partial<SettingsDraft['summarizer']>) =>
    update((d) => ({ ...d, summarizer: { ...d.summarizer, ...patch } }));
  return (
    <fieldset className="settings-section">
      <legend>Summarization</legend>
      <Checkbox
        id={`${idPrefix}-use-llm`}
        label="Summarize with an LLM"
        checked={useLlm}
        onChange={(checked) => setSummarizer({ useLlm: checked, chosen: true })}
        describedBy={noteId}
      />
      <p id={noteId} className="settings-note settings-field-wide">
        {summarizationNote(draft.summarizer)}
      </p>
      <LlmPicker
        id={`${idPrefix}-summarizer-llm`}
        label="LLM for summaries"
        value={llm}
        onChange={(next) => update((d) => withSummarizerLlm(d, next))}
      />
      {llm === 'endpoint' && (
        <EndpointFields
          idPrefix={`${idPrefix}-summarizer`}
          endpoint={endpoint}
          onChange={(next) => update((d) => withSummarizerEndpoint(d, next))}
          errors={errorsOf(errorFor, 'summarizer')}
          purpose="chat"
          testConnection={testConnection}
          urlExamples={<EndpointExamples pageOrigin={pageOrigin} />}
          modelPlaceholder={CHAT_MODEL_EXAMPLES}
        />
      )}
    </fieldset>
  );
}

/** The "Answering" fieldset. */
export function AnsweringSection({ draft, update, errorFor, idPrefix, testConnection }: LlmSectionProps) {
  const noteId = useId();
  const { sameAsSummarizer, endpoint, llm } = draft.answer;
  const setAnswer = (patch: Partial<SettingsDraft['answer']>) =>
    update((d) => ({ ...d, answer: { ...d.answer, ...patch } }));
  const source = sameAsSummarizer ? draft.summarizer.llm : llm;
  const effective = sameAsSummarizer ? draft.summarizer.endpoint : endpoint;
  return (
    <fieldset className="settings-section">
      <legend>Answering</legend>
      <Checkbox
        id={`${idPrefix}-same`}
        label={
          draft.summarizer.llm === 'builtin'
            ? 'Same as summarization (the built-in model)'
            : 'Same endpoint as summarization'
        }
        checked={sameAsSummarizer}
        onChange={(checked) => setAnswer({ sameAsSummarizer: checked })}
        describedBy={noteId}
      />
      <p id={noteId} className="settings-note settings-field-wide">
        {source === 'builtin'
          ? 'Answers are written in this browser by the built-in model from the retrieved passages, citing them.'
          : isConfigured(effective)
            ? 'Answers are written by this endpoint from the retrieved passages, citing them.'
            : 'Without an endpoint, Aerie shows the retrieved passages instead of writing an answer.'}
      </p>
      {!sameAsSummarizer && (
        <LlmPicker
          id={`${idPrefix}-answer-llm`}
          label="LLM for answers"
          value={llm}
          onChange={(next) => setAnswer({ llm: next })}
        />
      )}
      {!sameAsSummarizer && llm === 'endpoint' && (
        <EndpointFields
          idPrefix={`${idPrefix}-answer`}
          endpoint={endpoint}
          onChange={(next) => setAnswer({ endpoint: next })}
          errors={errorsOf(errorFor, 'answer')}
          purpose="chat"
          testConnection={testConnection}
          modelPlaceholder={CHAT_MODEL_EXAMPLES}
        />
      )}
    </fieldset>
  );
}

/** The "Embeddings endpoint (optional)" fieldset. */
export function EmbeddingsEndpointSection({
  draft,
  update,
  errorFor,
  idPrefix,
  testConnection,
}: LlmSectionProps) {
  return (
    <fieldset className="settings-section">
      <legend>Embeddings endpoint (optional)</legend>
      <p className="settings-note settings-field-wide">
        An OpenAI-compatible <code>/v1/embeddings</code> endpoint. Use it for corpora too large to embed in
        the browser, or to ask questions of trees built with OpenAI embeddings. To build with it, choose
        “Embeddings endpoint” as the embedding model.
      </p>
      <EndpointFields
        idPrefix={`${idPrefix}-embeddings`}
        endpoint={draft.embeddingsEndpoint}
        onChange={(next) => update((d) => ({ ...d, embeddingsEndpoint: { ...next, protocol: 'openai' } }))}
        errors={errorsOf(errorFor, 'embeddingsEndpoint')}
        purpose="embeddings"
        testConnection={testConnection}
        modelPlaceholder="e.g. text-embedding-3-small, nomic-embed-text"
      />
    </fieldset>
  );
}
