/**
 * Settings section "Built-in model (runs in this browser)": which language model writes summaries and answers
 * when the built-in model is chosen for them — a preset (named with its size and what to expect), the offline
 * test model, or any Hugging Face id — and where it runs.
 */
import {
  GENERATOR_PRESETS,
  TEST_GENERATOR_ID,
  TEST_GGUF_GENERATOR_ID,
} from '../../models/generate/generator-presets';
import { isGgufModel } from '../../models/generate/gguf';
import { formatCount } from '../format';
import type { BuiltinSettings } from './app-settings';
import { CUSTOM_MODEL_CHOICE, type SectionProps, type SettingsDraft } from './draft';
import { Field, HubModelIdField } from './Field';

/** The label of the offline test model in the picker. */
export const TEST_MODEL_LABEL = 'Aerie tiny test model — offline, for tests (2.5 MB; writes gibberish)';
/** The label of the offline test model's GGUF copy (llama.cpp) in the picker. */
export const TEST_GGUF_MODEL_LABEL =
  'Aerie tiny test model, GGUF for llama.cpp — offline, for tests (0.3 MB)';

const DEVICE_OPTIONS: readonly { value: BuiltinSettings['device']; label: string }[] = [
  { value: 'auto', label: 'Auto (WebGPU when available)' },
  { value: 'webgpu', label: 'WebGPU (graphics card)' },
  { value: 'wasm', label: 'WASM (CPU)' },
];

function describe(choice: string): string {
  const preset = GENERATOR_PRESETS.find((p) => p.id === choice);
  if (preset) return preset.description;
  if (choice === TEST_GENERATOR_ID || choice === TEST_GGUF_GENERATOR_ID) {
    return (
      'A tiny random-weight model served by Aerie itself, for trying the whole path offline and for tests. ' +
      'It writes nonsense: choose a real model for real summaries.'
    );
  }
  if (isGgufModel(choice)) {
    return (
      'A GGUF file: it runs on llama.cpp in the weights the file holds, on WebGPU where its backend can (a GPU ' +
      'with shader-f16), else on the CPU in WebAssembly. ' +
      'Aerie measured llama.cpp slower than ONNX Runtime for summaries on the CPU: it reads long prompts ' +
      'about ten times slower and writes about as fast. Needs a recent Chrome or Edge (WebAssembly memory64 ' +
      'and JSPI).'
    );
  }
  return (
    'Any text-generation (instruct) model on the Hugging Face hub: a repository with ONNX weights, e.g. from ' +
    'onnx-community (runs on ONNX Runtime: WebGPU or the CPU), or a GGUF file written ' +
    'owner/repository/file.gguf (runs on llama.cpp: WebGPU or the CPU). Small models (under 2B parameters) are ' +
    'practical in a browser.'
  );
}

function whereFrom(choice: string): string {
  if (choice === TEST_GENERATOR_ID || choice === TEST_GGUF_GENERATOR_ID) {
    return 'Served by Aerie itself: nothing is downloaded.';
  }
  return (
    'Downloaded once from huggingface.co, then cached by this browser; your documents never leave it. ' +
    'Without the hub, builds fall back to the extractive summarizer.'
  );
}

/** The "Built-in model (runs in this browser)" fieldset. */
export function BuiltinSection({ draft, update, errorFor, idPrefix }: SectionProps) {
  const { choice, customId, device } = draft.builtin;
  const set = (patch: Partial<SettingsDraft['builtin']>) =>
    update((d) => ({ ...d, builtin: { ...d.builtin, ...patch } }));
  return (
    <fieldset className="settings-section">
      <legend>Built-in model (runs in this browser)</legend>
      <Field
        id={`${idPrefix}-builtin-model`}
        label="Built-in model"
        help={describe(choice)}
        className="settings-field-wide"
      >
        {(control) => (
          <select {...control} value={choice} onChange={(e) => set({ choice: e.target.value })}>
            {GENERATOR_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {`${p.label}: ${p.parameters} parameters, ${formatCount(p.sizeMb)} MB`}
              </option>
            ))}
            <option value={TEST_GENERATOR_ID}>{TEST_MODEL_LABEL}</option>
            <option value={TEST_GGUF_GENERATOR_ID}>{TEST_GGUF_MODEL_LABEL}</option>
            <option value={CUSTOM_MODEL_CHOICE}>Custom Hugging Face model…</option>
          </select>
        )}
      </Field>
      {choice === CUSTOM_MODEL_CHOICE && (
        <HubModelIdField
          id={`${idPrefix}-builtin-custom`}
          label="Language model id"
          error={errorFor('builtin.customId')}
          example="onnx-community/Qwen2.5-0.5B-Instruct"
          help={
            'Owner and name of a repository with ONNX weights on huggingface.co, e.g. ' +
            'onnx-community/Qwen2.5-0.5B-Instruct; or a GGUF file as owner/repository/file.gguf, e.g. ' +
            'Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf (runs on llama.cpp).'
          }
          value={customId}
          onChange={(value) => set({ customId: value })}
        />
      )}
      <Field
        id={`${idPrefix}-builtin-device`}
        label="Runs on"
        help={
          'ONNX models: WebGPU uses 4-bit weights, the CPU (WASM) 8-bit weights. GGUF files run on llama.cpp ' +
          'in the weights the file holds, on WebGPU only with shader-f16 (else on the CPU, and Aerie says why).'
        }
      >
        {(control) => (
          <select
            {...control}
            value={device}
            onChange={(e) => set({ device: e.target.value as BuiltinSettings['device'] })}
          >
            {DEVICE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="settings-note settings-field-wide">
        {whereFrom(choice)} Before summarizing, Aerie times a short warm-up and shows how long this document
        should take on this device; Cancel and Resume work as with endpoints.
      </p>
    </fieldset>
  );
}
