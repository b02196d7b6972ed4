/**
 * Settings section "Embedding model": a preset, a custom Hugging Face model or the embeddings endpoint,
 * with the precision and device of in-browser models, and where the model comes from.
 */
import type { EmbeddingDevice } from '../../models/embed';
import { EMBEDDING_PRESETS, OFFLINE_MODEL_ID } from '../../models/embed/embedding-presets';
import type { EmbeddingPrecision } from '../../models/embed';
import { DEFAULT_RERANKER_ID } from '../../models/embed/reranker-presets';
import { formatCount } from '../format';
import { CUSTOM_MODEL_CHOICE, ENDPOINT_MODEL_CHOICE, type SectionProps, type SettingsDraft } from './draft';
import { Field, HubModelIdField } from './Field';

const DTYPE_OPTIONS: readonly { value: EmbeddingPrecision; label: string }[] = [
  { value: 'auto', label: 'Automatic: 8-bit on the CPU, full on WebGPU' },
  { value: 'q8', label: '8-bit (q8): smaller and faster' },
  { value: 'fp32', label: 'Full (fp32): about 4× larger' },
];

const DEVICE_OPTIONS: readonly { value: EmbeddingDevice; label: string }[] = [
  { value: 'auto', label: 'Auto (WebGPU when available)' },
  { value: 'webgpu', label: 'WebGPU' },
  { value: 'wasm', label: 'WASM (CPU)' },
];

function whereFrom(choice: string): string {
  if (choice === OFFLINE_MODEL_ID)
    return 'Served by Aerie itself: nothing is downloaded and nothing leaves the app.';
  if (choice === ENDPOINT_MODEL_CHOICE) {
    return 'Texts are sent to the embeddings endpoint configured below, which returns their vectors.';
  }
  return 'Downloaded once from huggingface.co, then cached by this browser. Your documents never leave it.';
}

/** The "Embedding model" fieldset. */
export function EmbeddingSection({ draft, update, errorFor, idPrefix }: SectionProps) {
  const { choice, customId, dtype, device } = draft.embedding;
  const preset = EMBEDDING_PRESETS.find((p) => p.id === choice);
  const set = (patch: Partial<SettingsDraft['embedding']>) =>
    update((d) => ({ ...d, embedding: { ...d.embedding, ...patch } }));
  const description = preset
    ? `${preset.description} ${formatCount(preset.dim)}-dimensional vectors, about ${formatCount(preset.sizeMb)} MB.`
    : choice === CUSTOM_MODEL_CHOICE
      ? 'Any feature-extraction model with ONNX weights on the Hugging Face hub.'
      : 'An OpenAI-compatible /v1/embeddings endpoint.';

  return (
    <fieldset className="settings-section">
      <legend>Embedding model</legend>
      <Field
        id={`${idPrefix}-model`}
        label="Embedding model"
        hideLabel
        help={description}
        className="settings-field-wide"
      >
        {(control) => (
          <select {...control} value={choice} onChange={(e) => set({ choice: e.target.value })}>
            {EMBEDDING_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {`${p.label} (${formatCount(p.sizeMb)} MB)`}
              </option>
            ))}
            <option value={CUSTOM_MODEL_CHOICE}>Custom Hugging Face model…</option>
            <option value={ENDPOINT_MODEL_CHOICE}>Embeddings endpoint (set up below)</option>
          </select>
        )}
      </Field>
      {choice === CUSTOM_MODEL_CHOICE && (
        <HubModelIdField
          id={`${idPrefix}-custom`}
          label="Model id"
          error={errorFor('embedding.customId')}
          example="Xenova/bge-small-en-v1.5"
          value={customId}
          onChange={(value) => set({ customId: value })}
        />
      )}
      {choice !== ENDPOINT_MODEL_CHOICE && (
        <>
          <Field id={`${idPrefix}-dtype`} label="Precision">
            {(control) => (
              <select
                {...control}
                value={dtype}
                onChange={(e) => set({ dtype: e.target.value as EmbeddingPrecision })}
              >
                {DTYPE_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id={`${idPrefix}-device`} label="Device">
            {(control) => (
              <select
                {...control}
                value={device}
                onChange={(e) => set({ device: e.target.value as EmbeddingDevice })}
              >
                {DEVICE_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}
      <p className="settings-note settings-field-wide">
        {whereFrom(choice)} Each tree keeps the model it was built with, and questions to it use that model.
      </p>
      <Field
        id={`${idPrefix}-reranker`}
        label="Reranker model"
        help={`A cross-encoder that reorders the best passages when “Rerank” is ticked in the Ask panel (default ${DEFAULT_RERANKER_ID}, 23 MB, downloaded on first use): a Hugging Face id or local:<folder>.`}
        error={errorFor('reranker')}
        className="settings-field-wide"
      >
        {(control) => (
          <input
            {...control}
            type="text"
            spellCheck={false}
            value={draft.reranker}
            onChange={(e) => update((d) => ({ ...d, reranker: e.target.value }))}
          />
        )}
      </Field>
    </fieldset>
  );
}
