/**
 * Caching wrappers that make resuming a build free. Every embedding and summary is stored under the SHA-256 of
 * everything that determines it, as soon as the model returns it. The build is deterministic for a seed (same
 * embeddings and summaries → same clusters), so re-running an interrupted build repeats no finished model call,
 * rebuilding the same documents with the same settings calls no model at all, and adding a document pays only
 * for its own leaves and for the clusters that changed.
 */
import { throwIfAborted } from '../core/abort';
import { BuildError, EMBED_BATCH } from '../core/build-shared';
import type { EvalChat } from '../core/eval';
import { hasVisibleText } from '../core/text/visible';
import type { EmbedFn, SummarizeFn } from '../core/types';
import { SUMMARY_SYSTEM_PROMPT, SUMMARY_USER_TEMPLATE } from '../llm';
import { embeddingModelId, type EmbeddingChoice, type SummarizerChoice } from '../protocol/build';
import { gather } from './gather';
import {
  embeddingHash,
  evalHash,
  lookupCache as lookup,
  saveCache as save,
  summaryHash,
  type EmbeddingCacheKey,
  type SummaryCacheKey,
  DEFAULT_EMBEDDING_DTYPE,
  type AerieDb,
  type CacheEntry,
  ownedVector,
} from '../storage';

/** The embedding cache key of a build's embedding choice (the default dtype made explicit). */
export function embeddingCacheKeyFor(choice: EmbeddingChoice): EmbeddingCacheKey {
  const model = embeddingModelId(choice);
  return choice.kind === 'browser' ? { model, dtype: choice.dtype ?? DEFAULT_EMBEDDING_DTYPE } : { model };
}

/**
 * The summary cache key of a build's summariser (default prompts made explicit, so both forms share entries).
 * @param builtinTag the loaded built-in model's tag (`builtin:<model>@<dtype>`), required for a builtin choice:
 *   its dtype is settled only once the model loads.
 */
export function summaryCacheKeyFor(
  choice: SummarizerChoice,
  embedding: EmbeddingChoice,
  builtinTag?: string,
): SummaryCacheKey {
  if (choice.kind === 'extractive')
    return { kind: 'extractive', embeddingModel: embeddingModelId(embedding) };
  if (choice.kind === 'builtin') {
    if (!builtinTag) throw new TypeError('The summary cache key of the built-in model needs its loaded tag.');
    return {
      kind: 'builtin',
      model: builtinTag,
      systemPrompt: choice.systemPrompt ?? SUMMARY_SYSTEM_PROMPT,
      userTemplate: choice.userTemplate ?? SUMMARY_USER_TEMPLATE,
    };
  }
  const key: SummaryCacheKey = {
    kind: 'llm',
    protocol: choice.endpoint.protocol,
    model: choice.endpoint.model,
    systemPrompt: choice.systemPrompt ?? SUMMARY_SYSTEM_PROMPT,
    userTemplate: choice.userTemplate ?? SUMMARY_USER_TEMPLATE,
  };
  if (choice.endpoint.temperature !== undefined) key.temperature = choice.endpoint.temperature;
  return key;
}

/** Hits (answered from the cache) and misses (answered by the model) of a cached model, counted per text. */
export interface CacheStats {
  hits: number;
  misses: number;
}

/** What both wrappers add to the model function. */
export interface CachedModel {
  /** Counts so far. */
  readonly stats: Readonly<CacheStats>;
  /**
   * Resolves once every call made so far has settled and its result is stored (a cancelled build leaves calls
   * in flight; await this before marking the build paused, so their results are not paid for again).
   */
  flush(): Promise<void>;
}

function tracker() {
  const pending = new Set<Promise<unknown>>();
  return {
    track<T>(work: Promise<T>): Promise<T> {
      pending.add(work);
      const forget = () => pending.delete(work);
      work.then(forget, forget);
      return work;
    },
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

function badVector(vector: unknown): boolean {
  return !(vector instanceof Float32Array) || vector.length === 0 || !vector.every(Number.isFinite);
}

/**
 * Wraps an embedder with the cache. Each call looks all its texts up in one transaction, embeds only the
 * misses (each distinct text once, in batches of `batchSize`) and stores each batch's vectors as soon as the
 * batch returns, so a build stopped later keeps them.
 * @param key the model and dtype (see `embeddingCacheKeyFor`).
 * @param treeId the tree that uses these entries (deleting it removes entries no other tree used).
 * @param options.batchSize texts per model call. Default 64 (the build's batch).
 * @throws BuildError BAD_EMBEDDING for a wrong number of vectors or a non-finite one (nothing is cached);
 *   StorageError QUOTA_EXCEEDED when the cache cannot grow (the build should stop: its tree could not be saved).
 */
export function cachedEmbedder(
  db: AerieDb,
  embed: EmbedFn,
  key: EmbeddingCacheKey,
  treeId: string,
  options: { batchSize?: number } = {},
): EmbedFn & CachedModel {
  const batchSize = options.batchSize ?? EMBED_BATCH;
  const stats: CacheStats = { hits: 0, misses: 0 };
  const { track, flush } = tracker();

  async function run(texts: string[], callOptions?: Parameters<EmbedFn>[1]): Promise<Float32Array[]> {
    const keys = await Promise.all(texts.map((text) => embeddingHash(key, text)));
    const found = await lookup(db, keys, treeId);
    const out: Float32Array[] = new Array(texts.length);
    const missing = new Map<string, number[]>();
    found.forEach((entry, i) => {
      if (entry?.kind === 'embedding') {
        out[i] = entry.value;
        stats.hits++;
      } else {
        const positions = missing.get(keys[i]);
        if (positions) positions.push(i);
        else missing.set(keys[i], [i]);
      }
    });
    const missKeys = [...missing.keys()];
    for (let start = 0; start < missKeys.length; start += batchSize) {
      throwIfAborted(callOptions?.signal);
      const batchKeys = missKeys.slice(start, start + batchSize);
      const batchTexts = batchKeys.map((k) => texts[(missing.get(k) as number[])[0]]);
      const vectors = await embed(batchTexts, callOptions);
      if (!Array.isArray(vectors) || vectors.length !== batchTexts.length || vectors.some(badVector)) {
        throw new BuildError(
          'BAD_EMBEDDING',
          `The embedder returned ${vectors?.length} vectors for ${batchTexts.length} texts, or a vector that is ` +
            'empty or not finite.',
          { expected: batchTexts.length, actual: vectors?.length },
        );
      }
      const createdAt = Date.now();
      await save(
        db,
        batchKeys.map((k, j) => ({
          key: k,
          kind: 'embedding',
          value: ownedVector(vectors[j]),
          treeIds: [treeId],
          createdAt,
        })),
      );
      stats.misses += batchKeys.length;
      batchKeys.forEach((k, j) => {
        // A text repeated within the call gets its own copy, so no two nodes share one mutable vector.
        (missing.get(k) as number[]).forEach(
          (pos, n) => (out[pos] = n === 0 ? vectors[j] : vectors[j].slice()),
        );
      });
    }
    return out;
  }

  const cached: EmbedFn = (texts, callOptions) => track(run(texts, callOptions));
  return Object.assign(cached, { stats, flush });
}

/** Options of `cachedSummarizer`. */
export interface CachedSummarizerOptions {
  /**
   * Whether a summary the model just returned was cut to its budget (the model wrote more): recorded with the
   * entry, so a resumed or repeated build still knows which of its summaries were cut.
   */
  isCut?: (summary: string) => boolean;
  /** Called each time a summary this build uses (new or from the cache) was cut, with the count so far. */
  onCut?: (cut: number) => void;
}

/** Hits and misses, and how many summaries used were cut to their budget. */
export interface SummaryCacheStats extends CacheStats {
  cut: number;
}

/**
 * Wraps a summariser with the cache: a cached summary answers without calling the model; a new one is stored
 * as soon as it returns (before the call resolves); a failed call stores nothing. Calls in flight together share
 * their lookups' and their writes' IndexedDB transactions (`gather`). Concurrent calls for the
 * same cluster share one model call. Summaries the model wrote past their budget (see `options.isCut`) are
 * marked in their entries and counted in `stats.cut`.
 * @param key what determines a summary (see `summaryCacheKeyFor`).
 * @param treeId the tree that uses these entries.
 * @throws whatever the summariser throws; StorageError QUOTA_EXCEEDED when the cache cannot grow.
 */
export function cachedSummarizer(
  db: AerieDb,
  summarize: SummarizeFn,
  key: SummaryCacheKey,
  treeId: string,
  options: CachedSummarizerOptions = {},
): SummarizeFn & CachedModel & { readonly stats: Readonly<SummaryCacheStats> } {
  const stats: SummaryCacheStats = { hits: 0, misses: 0, cut: 0 };
  const { track, flush } = tracker();
  const inFlight = new Map<string, Promise<{ summary: string; cut: boolean }>>();
  // The summaries written at once (`concurrency` of them) share their lookups' and their writes' transactions.
  const lookupOne = gather((hashes: string[]) => lookup(db, hashes, treeId));
  const saveOne = gather(async (entries: CacheEntry[]) => {
    await save(db, entries);
    return entries.map(() => undefined);
  });

  async function fromCacheOrModel(hash: string, texts: string[], callOptions: Parameters<SummarizeFn>[1]) {
    const entry = await lookupOne(hash);
    if (entry?.kind === 'summary') {
      stats.hits++;
      return { summary: entry.value, cut: entry.cut === true };
    }
    throwIfAborted(callOptions.signal);
    const summary = await summarize(texts, callOptions);
    stats.misses++;
    const cut = typeof summary === 'string' && (options.isCut?.(summary) ?? false);
    // A blank summary is an error the build reports; caching it would repeat the error on every resume.
    if (typeof summary === 'string' && hasVisibleText(summary)) {
      const entry: CacheEntry = {
        key: hash,
        kind: 'summary',
        value: summary,
        treeIds: [treeId],
        createdAt: Date.now(),
      };
      if (cut) entry.cut = true;
      await saveOne(entry);
    }
    return { summary, cut };
  }

  async function run(texts: string[], callOptions: Parameters<SummarizeFn>[1]): Promise<string> {
    const hash = await summaryHash(key, texts, callOptions.maxTokens);
    const shared = inFlight.get(hash);
    let result: { summary: string; cut: boolean };
    if (shared) {
      result = await shared;
      stats.hits++;
    } else {
      const work = fromCacheOrModel(hash, texts, callOptions);
      inFlight.set(hash, work);
      try {
        result = await work;
      } finally {
        inFlight.delete(hash);
      }
    }
    if (result.cut) options.onCut?.(++stats.cut);
    return result.summary;
  }

  const cached: SummarizeFn = (texts, callOptions) => track(run(texts, callOptions));
  return Object.assign(cached, { stats, flush });
}

/**
 * Wraps the evaluation's model call with the cache, so a stopped or failed evaluation (or question writing)
 * resumed later pays for no reply twice, and running the same set again with the same model costs nothing. A
 * reply is stored as soon as it returns; a blank one is not (it would be repeated on every resume), nor one the
 * call's `accept` refuses (a reply that held no question: asking again must reach the model). Identical requests
 * in flight at once share one call: two modes that retrieved the same context (passages by sentence often make
 * the collapsed tree's and the leaves' the same) ask the same question together, and the second used to miss the
 * cache the first had not filled yet.
 * @param model what determines a reply besides its messages: the protocol, endpoint model and temperature, or
 *   the built-in model's tag.
 * @param treeId the tree these replies belong to (deleting it removes them).
 * @throws whatever `chat` throws; StorageError QUOTA_EXCEEDED when the cache cannot grow.
 */
export function cachedEvalChat(
  db: AerieDb,
  chat: EvalChat,
  model: string,
  treeId: string,
): EvalChat & { readonly stats: Readonly<CacheStats> } {
  const stats: CacheStats = { hits: 0, misses: 0 };
  const inFlight = new Map<string, Promise<string>>();
  const cached: EvalChat = async (messages, options) => {
    const hash = await evalHash(model, messages, options.maxTokens);
    const accepted = (reply: string) => reply.trim() !== '' && (options.accept?.(reply) ?? true);
    const shared = inFlight.get(hash);
    if (shared) {
      const reply = await shared.catch(() => undefined);
      if (reply !== undefined && accepted(reply)) {
        stats.hits++;
        return reply;
      }
    }
    const work = (async () => {
      const [entry] = await lookup(db, [hash], treeId);
      if (entry?.kind === 'eval' && accepted(entry.value)) {
        stats.hits++;
        return entry.value;
      }
      throwIfAborted(options.signal);
      const reply = await chat(messages, options);
      stats.misses++;
      if (accepted(reply)) {
        await save(db, [{ key: hash, kind: 'eval', value: reply, treeIds: [treeId], createdAt: Date.now() }]);
      }
      return reply;
    })();
    if (!shared) inFlight.set(hash, work);
    try {
      return await work;
    } finally {
      if (inFlight.get(hash) === work) inFlight.delete(hash);
    }
  };
  return Object.assign(cached, { stats });
}
