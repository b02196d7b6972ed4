/**
 * Loading the embedding model before it is needed. A build's first stage is loading its model (seconds:
 * reading the weights, compiling ONNX Runtime's WASM, creating the session), and so is a question's on a tree
 * just opened. The page starts that load as soon as it knows which model will be needed — documents waiting to
 * be built, or a tree open for questions — so the build or the question finds the model ready.
 *
 * A warm-up never causes traffic the user did not already ask for: a model the app serves itself is loaded
 * from the app's origin; a hub model only when its files are already in this browser's model cache (it was
 * downloaded by an earlier build); an endpoint model never (it has nothing to load here).
 *
 * A hub model not in the cache warms the offline model instead (served by the app, so no traffic either): it is
 * the model a build falls back to when the hub cannot be reached, and loading it starts ONNX Runtime's
 * WebAssembly, which any model's load then finds ready. A first build without network then skips most of its
 * model stage (issue #44: ~9 s of a 78k-token build); a build with network downloads its model as before.
 */
import type { ModelChoice } from './embed-service';
import { HUB_HOST, modelIdProblem } from '../files';
import { locateModel, OFFLINE_MODEL_ID } from './embedding-presets';

/**
 * Whether, and on what condition, a model may be loaded ahead of need; `if-cached` names the model to warm
 * when the files are not all cached (`otherwise`).
 */
export type WarmupPlan =
  | { kind: 'local' }
  | { kind: 'if-cached'; urls: readonly string[]; otherwise: ModelChoice }
  | { kind: 'never' };

/**
 * The warm-up plan of a model choice: `local` for a model the app serves (load it), `if-cached` with the hub
 * URLs of the files a load reads (load only when every one is in the model cache, else the offline model on
 * the same device), `never` for endpoint models.
 */
export function warmupPlan(choice: ModelChoice): WarmupPlan {
  // An id that is not one is never fetched, not even from the cache; the load the user asks for says why.
  if (modelIdProblem(choice.model, { endpoint: true }) !== undefined) return { kind: 'never' };
  const location = locateModel(choice.model);
  if (location.kind === 'endpoint') return { kind: 'never' };
  if (location.kind === 'local') return { kind: 'local' };
  // transformers.js names a repo's weights onnx/model.onnx (fp32) and onnx/model_quantized.onnx (q8).
  const weights = choice.dtype === 'fp32' ? 'model.onnx' : 'model_quantized.onnx';
  const base = `${HUB_HOST}${location.repo}/resolve/main/`;
  return {
    kind: 'if-cached',
    urls: [`${base}config.json`, `${base}tokenizer.json`, `${base}onnx/${weights}`],
    otherwise: { model: OFFLINE_MODEL_ID, dtype: 'q8', ...(choice.device ? { device: choice.device } : {}) },
  };
}
