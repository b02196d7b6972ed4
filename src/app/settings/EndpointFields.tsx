/**
 * The fields of one endpoint (protocol, URL, API key, model) and its "Test connection" button. The key is a
 * password field, shown only while the user toggles it on; a test result is shown in a live region and
 * hidden as soon as the fields it was for change. Nothing here logs the key, and a key echoed back in an
 * error message is redacted.
 */
import { useRef, useState, type ReactNode } from 'react';
import { formatCount } from '../format';
import { redactSecret } from '../../llm';
import type { EndpointSettings } from './app-settings';
import { Field } from './Field';

/** What a connection test found. */
export type ConnectionResult =
  { ok: true; model: string; latencyMs: number } | { ok: false; message: string };

/** What an endpoint is for: chat completions (summaries, answers) or /v1/embeddings. */
export type EndpointPurpose = 'chat' | 'embeddings';

/** Sends one small request to the endpoint; `purpose` tells a chat endpoint from an embeddings one. */
export type TestConnection = (
  endpoint: EndpointSettings,
  purpose: EndpointPurpose,
) => Promise<ConnectionResult>;

/** Props of `EndpointFields`. */
export interface EndpointFieldsProps {
  /** Prefix of the controls' ids (unique in the page). */
  idPrefix: string;
  endpoint: EndpointSettings;
  onChange(next: EndpointSettings): void;
  errors: { baseUrl?: string; model?: string };
  /** Chat endpoints offer a protocol; embeddings endpoints are OpenAI-compatible only. */
  purpose: EndpointPurpose;
  testConnection: TestConnection;
  /** Shown right after the URL field, outside its description (e.g. a list of example URLs). */
  urlExamples?: ReactNode;
  /** Example model names for the model field. */
  modelPlaceholder: string;
}

interface TestState {
  /** The endpoint the result is for; a result for other values is not shown. */
  endpoint: EndpointSettings;
  phase: 'testing' | 'done';
  ok?: boolean;
  text?: string;
}

const PLACEHOLDER_URL: Record<EndpointSettings['protocol'], string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

function sameEndpoint(a: EndpointSettings, b: EndpointSettings): boolean {
  return a.protocol === b.protocol && a.baseUrl === b.baseUrl && a.apiKey === b.apiKey && a.model === b.model;
}

/** The endpoint's fields and its connection test. */
export function EndpointFields({
  idPrefix,
  endpoint,
  onChange,
  errors,
  purpose,
  testConnection,
  urlExamples,
  modelPlaceholder,
}: EndpointFieldsProps) {
  const [showKey, setShowKey] = useState(false);
  const [test, setTest] = useState<TestState | undefined>(undefined);
  // Only the latest test may write its result (an older, slower one must not overwrite it).
  const latestTest = useRef(0);
  const set = (patch: Partial<EndpointSettings>) => onChange({ ...endpoint, ...patch });
  const current = test && sameEndpoint(test.endpoint, endpoint) ? test : undefined;
  const testing = current?.phase === 'testing';

  const runTest = async () => {
    if (testing) return;
    const snapshot = { ...endpoint };
    const id = ++latestTest.current;
    if (snapshot.baseUrl.trim() === '' || snapshot.model.trim() === '' || errors.baseUrl) {
      setTest({
        endpoint: snapshot,
        phase: 'done',
        ok: false,
        text: 'Enter a valid endpoint URL and a model first.',
      });
      return;
    }
    setTest({ endpoint: snapshot, phase: 'testing' });
    let result: ConnectionResult;
    try {
      result = await testConnection(snapshot, purpose);
    } catch (error) {
      result = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    if (id !== latestTest.current) return;
    setTest({
      endpoint: snapshot,
      phase: 'done',
      ok: result.ok,
      text: result.ok
        ? `Connected: ${result.model} answered in ${formatCount(result.latencyMs)} ms.`
        : `Connection failed: ${redactSecret(result.message, snapshot.apiKey)}`,
    });
  };

  const statusText = testing ? 'Testing the connection…' : (current?.text ?? '');
  return (
    <div className="settings-endpoint">
      {purpose === 'chat' && (
        <Field id={`${idPrefix}-protocol`} label="Protocol" className="settings-endpoint-protocol">
          {(control) => (
            <select
              {...control}
              value={endpoint.protocol}
              onChange={(e) => set({ protocol: e.target.value as EndpointSettings['protocol'] })}
            >
              <option value="openai">OpenAI-compatible</option>
              <option value="anthropic">Anthropic</option>
            </select>
          )}
        </Field>
      )}
      <Field
        id={`${idPrefix}-url`}
        label="Endpoint URL"
        error={errors.baseUrl}
        help={
          purpose === 'chat'
            ? 'The API’s base URL, without /chat/completions.'
            : 'The API’s base URL, without /embeddings.'
        }
        className={purpose === 'chat' ? 'settings-endpoint-url' : 'settings-field-wide'}
      >
        {(control) => (
          <input
            {...control}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={PLACEHOLDER_URL[endpoint.protocol]}
            value={endpoint.baseUrl}
            onChange={(e) => set({ baseUrl: e.target.value })}
          />
        )}
      </Field>
      {urlExamples}
      <Field id={`${idPrefix}-key`} label="API key" help="Optional for local servers. Stays in this browser.">
        {(control) => (
          <div className="settings-key">
            <input
              {...control}
              type={showKey ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="off"
              value={endpoint.apiKey}
              onChange={(e) => set({ apiKey: e.target.value })}
            />
            {/* Named by its content, not aria-label, so a label query for "API key" finds only the input. */}
            <button
              type="button"
              className="settings-button settings-key-toggle"
              onClick={() => setShowKey((v) => !v)}
            >
              {showKey ? 'Hide' : 'Show'}
              <span className="visually-hidden"> API key</span>
            </button>
          </div>
        )}
      </Field>
      <Field id={`${idPrefix}-model`} label="Model" error={errors.model}>
        {(control) => (
          <input
            {...control}
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder={modelPlaceholder}
            value={endpoint.model}
            onChange={(e) => set({ model: e.target.value })}
          />
        )}
      </Field>
      <div className="settings-test settings-field-wide">
        <button
          type="button"
          className="settings-button"
          aria-disabled={testing || undefined}
          onClick={() => void runTest()}
        >
          Test connection
        </button>
        <p
          role="status"
          className={`settings-test-result${current?.phase === 'done' ? (current.ok ? ' is-ok' : ' is-error') : ''}`}
        >
          {statusText}
        </p>
      </div>
    </div>
  );
}
