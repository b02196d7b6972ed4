/**
 * What a model id may be, checked where it is typed (Settings) and again where it is used (the loaders, which
 * also see ids from stored trees, imported files and older settings). A model id becomes a URL: `local:<folder>`
 * one under the app's own `/models/`, a hub id one on huggingface.co. So:
 *
 * - `local:` ids stay inside the app's models folder: each part of the path is a plain name (letters, digits,
 *   ".", "_", "-"; not "." or ".."), with no "%"-escape (`%2e%2e` is ".." to a server), no backslash (a "/" to
 *   some), no scheme, at most 3 parts (a folder, a GGUF file in it);
 * - hub ids have the hub's own form, `owner/name`, or `owner/name/path/file.gguf` for a GGUF file: names of
 *   letters, digits, ".", "_", "-", not starting or ending with "." or "-", without "--" or "..", 96 characters
 *   at most, as the hub itself requires;
 * - every id is at most `MAX_MODEL_ID_CHARS` long and holds no space, control character, "@", "?" or "#";
 * - an id that looks like a key or password (an access token pasted into the wrong field, `user:pass@…`) is
 *   refused as such.
 *
 * No message ever quotes the id: it may hold a secret pasted by mistake. Pure; the page and workers share it.
 */
import { AerieError } from '../../core/errors';

/** Longest model id accepted (the hub's owner and name are 96 characters each at most; a GGUF file's path). */
export const MAX_MODEL_ID_CHARS = 200;
/** Longest owner or repository name on the hub. */
const MAX_HUB_NAME_CHARS = 96;
/** Most parts of a `local:` id: a folder, or a folder and a GGUF file in it (one level deeper allowed). */
const MAX_LOCAL_PARTS = 3;

/** A model id that cannot be used, and why (never the id itself). */
export class ModelIdError extends AerieError<'INVALID_MODEL_ID'> {}

/** Which ids a field or loader takes besides browser models. */
export interface ModelIdOptions {
  /** `openai:<model>`, an embeddings endpoint's model (the embedding model only). */
  endpoint?: boolean;
  /** A GGUF file (`owner/name/file.gguf`, `local:folder/file.gguf`): the built-in model only. */
  gguf?: boolean;
}

const HUB_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const FILE_PART = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
/** Access tokens of the hub and of the usual LLM providers, pasted into the wrong field. */
const TOKEN = /(?:^|[/:])(?:hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{16,}|api_[A-Za-z0-9]{20,})/;

const n = (x: number) => x.toLocaleString('en');
const WEB_ADDRESS =
  'A model id is not a web address: write the hub’s owner/name, or local:<folder> for a model this app serves.';

function localProblem(path: string, gguf: boolean): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return WEB_ADDRESS;
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) {
    return 'A local: model names a folder inside the app’s models folder: no “..”, “.” or empty parts, and no leading “/”.';
  }
  if (parts.length > MAX_LOCAL_PARTS || !parts.every((p) => FILE_PART.test(p))) {
    return 'A local: model is written local:<folder> (or local:<folder>/<file>.gguf), its names of letters, digits, “.”, “_” and “-”.';
  }
  if (!gguf && /\.gguf$/i.test(path)) return 'GGUF files run only as the built-in model.';
  return undefined;
}

function hubProblem(id: string, gguf: boolean): string | undefined {
  const parts = id.split('/');
  const isGguf = /\.gguf$/i.test(id);
  const form = gguf
    ? 'A Hugging Face model id has the form owner/name (e.g. onnx-community/Qwen2.5-0.5B-Instruct), or owner/name/file.gguf for a GGUF file.'
    : 'A Hugging Face model id has the form owner/name (e.g. Xenova/multi-qa-MiniLM-L6-cos-v1).';
  if (isGguf && !gguf) return 'GGUF files run only as the built-in model.';
  if (parts.length < 2 || (!isGguf && parts.length !== 2)) return form;
  const [owner, name, ...file] = parts;
  for (const part of [owner, name]) {
    if (
      !HUB_NAME.test(part) ||
      part.includes('--') ||
      part.includes('..') ||
      part.length > MAX_HUB_NAME_CHARS
    ) {
      return `${form} Owner and name use letters, digits, “.”, “_” and “-”, do not start or end with “.” or “-”, hold no “--” or “..”, and have at most ${MAX_HUB_NAME_CHARS} characters.`;
    }
  }
  if (isGguf && (file.length === 0 || !file.every((p) => FILE_PART.test(p) && p !== '..'))) {
    return `${form} The file’s path uses letters, digits, “.”, “_”, “-” and “/”.`;
  }
  return undefined;
}

/**
 * What is wrong with model id `id` (trimmed), as a sentence that does not quote it; undefined when it can be
 * used. See the module comment for the rules.
 */
export function modelIdProblem(id: string, options: ModelIdOptions = {}): string | undefined {
  const text = id.trim();
  if (text === '') return 'Enter a model id.';
  if (text.length > MAX_MODEL_ID_CHARS) {
    return `A model id has at most ${n(MAX_MODEL_ID_CHARS)} characters; this one has ${n(text.length)}.`;
  }
  // Control and format characters, including ones that draw nothing: an id is typed, not pasted blind.
  if (/[\s\p{Cc}\p{Cf}]/u.test(text)) return 'A model id has no spaces or invisible characters.';
  if (TOKEN.test(text)) {
    return 'This looks like an access token, not a model id: a model id never holds a key. Put keys in “API key”.';
  }
  if (options.endpoint && text.startsWith('openai:')) {
    return text.length > 'openai:'.length ? undefined : 'Enter the endpoint’s model name after “openai:”.';
  }
  if (text.includes('@')) return 'A model id holds no “@”, user name or password: write owner/name.';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^(?:https?|file|data|blob|javascript):/i.test(text)) {
    return WEB_ADDRESS;
  }
  if (text.includes('\\')) return 'A model id separates its parts with “/”, never “\\”.';
  if (text.includes('%'))
    return 'A model id holds no %-escapes (such as %2e): write the characters themselves.';
  if (/[?#]/.test(text)) return 'A model id holds no “?” or “#”.';
  if (text.startsWith('local:')) return localProblem(text.slice('local:'.length), options.gguf === true);
  if (text.startsWith('openai:')) {
    return 'An “openai:” model is served by an embeddings endpoint; choose “Embeddings endpoint” for the embedding model.';
  }
  if (text.includes(':')) return 'A model id holds no “:” except in local:<folder>.';
  return hubProblem(text, options.gguf === true);
}

/**
 * Throws unless model id `id` can be used (the loaders call this before any file is fetched).
 * @param what the model's role in the message, e.g. "reranker model".
 * @throws ModelIdError INVALID_MODEL_ID with the problem as a sentence (the id is never quoted).
 */
export function checkModelId(id: string, what: string, options: ModelIdOptions = {}): void {
  const problem = modelIdProblem(id, options);
  if (problem !== undefined) {
    throw new ModelIdError('INVALID_MODEL_ID', `The ${what} cannot be loaded: ${problem}`, {
      length: id.length,
    });
  }
}
