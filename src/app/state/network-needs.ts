/**
 * What of the person's settings needs the network, said in a sentence while the browser is offline: endpoints
 * on other machines (an endpoint on this machine, such as Ollama, works offline), and models that are neither
 * in Aerie's offline copy nor downloaded into this browser before. Pure, tested in Node.
 */
import { modelKey } from '../../models/files';
import { locateModel, OFFLINE_MODEL_ID } from '../../models/embed/embedding-presets';
import {
  answerModelOf,
  builtinModelName,
  isConfigured,
  summarizerSource,
  type AppSettings,
  type EndpointSettings,
} from '../settings/app-settings';

/** Hosts of this machine: an endpoint there needs no network. */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]']);

function remoteHost(endpoint: EndpointSettings): string | undefined {
  try {
    const url = new URL(endpoint.baseUrl.trim());
    return THIS_MACHINE.has(url.hostname) ? undefined : url.host;
  } catch {
    return undefined;
  }
}

/**
 * The parts of `settings` that cannot work offline, each as a phrase ("answers by gpt-4o-mini at
 * api.openai.com"). `cached`: the model keys (src/models/files/cached-files.ts `modelKey`) with files in this browser.
 */
export function networkNeeds(settings: AppSettings, cached: ReadonlySet<string>): string[] {
  const needs: string[] = [];
  const available = (model: string) => model === OFFLINE_MODEL_ID || cached.has(modelKey(model));
  const { summarizer } = settings;
  if (summarizer.useLlm && summarizerSource(settings) === 'endpoint' && isConfigured(summarizer.endpoint)) {
    const host = remoteHost(summarizer.endpoint);
    if (host) needs.push(`summaries by ${summarizer.endpoint.model.trim()} at ${host}`);
  }
  const answers = answerModelOf(settings);
  if (answers?.kind === 'endpoint') {
    const host = remoteHost(answers.endpoint);
    if (host) needs.push(`answers by ${answers.endpoint.model.trim()} at ${host}`);
  }
  const embedding = locateModel(settings.embedding.model);
  if (embedding.kind === 'endpoint') {
    const host = isConfigured(settings.embeddingsEndpoint)
      ? remoteHost(settings.embeddingsEndpoint)
      : undefined;
    if (host) needs.push(`embeddings from ${host}`);
  } else if (!available(settings.embedding.model)) {
    needs.push(`the embedding model ${settings.embedding.model}, not downloaded in this browser yet`);
  }
  const builtinUsed =
    (summarizer.useLlm && summarizerSource(settings) === 'builtin') || answers?.kind === 'builtin';
  if (builtinUsed && !available(settings.builtin.model)) {
    needs.push(`the built-in model ${builtinModelName(settings.builtin.model)}, not downloaded yet`);
  }
  return needs;
}

/** The sentence the offline notice says. */
export function offlineSentence(needs: readonly string[]): string {
  const works = 'Your library, questions and new builds keep working.';
  if (needs.length === 0) return `${works} Everything Aerie is set up to use is in this browser.`;
  return `${works} Needs the network: ${needs.join('; ')}.`;
}
