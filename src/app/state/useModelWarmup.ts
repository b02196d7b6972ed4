/**
 * Keeps the embedding model the user will need next loading in the background (src/models/embed/warmup.ts): the
 * build's model while documents wait to be built, otherwise the open tree's model for questions. Nothing is
 * warmed during a build: the embedding worker holds one model, and the build is using it.
 */
import { useEffect, useRef } from 'react';
import { warmEmbedder } from '../../client/model-warmup';
import { buildWorker } from '../../client/workers';
import type { ModelChoice } from '../../models/embed';
import type { EmbeddingChoice } from '../../protocol/build';

/** Wait this long after the needed model changes to another before loading it (settings saved again and again). */
export const WARMUP_DELAY_MS = 400;

/**
 * How long to wait before warming a model, given the model the page last asked to warm (`''`: none yet). The
 * first model a page needs loads at once: the person who dropped a document clicks "Build tree" the moment it
 * is ready, and 400 ms later was after that click, so the build loaded the whole model itself (issue #44).
 * A change from one model to another still waits WARMUP_DELAY_MS, so a model chosen and changed at once is not
 * loaded in between.
 */
export function warmupDelayMs(previousKey: string): number {
  return previousKey === '' ? 0 : WARMUP_DELAY_MS;
}

/** Starts loading `choice` whenever it changes to another model (`warmupDelayMs` says when); undefined: nothing. */
export function useModelWarmup(choice: ModelChoice | undefined): void {
  const key = choice ? `${choice.model}|${choice.dtype ?? 'q8'}|${choice.device ?? 'auto'}` : '';
  const latest = useRef(choice);
  latest.current = choice;
  const warmed = useRef('');
  useEffect(() => {
    if (!key) return;
    const timer = setTimeout(() => {
      const wanted = latest.current;
      if (!wanted) return;
      warmed.current = key;
      void warmEmbedder(wanted).catch(() => undefined);
    }, warmupDelayMs(warmed.current));
    return () => clearTimeout(timer);
  }, [key]);
}

/**
 * Whether documents wait to be built, for the warm-ups: one is ready, or one is still being read (the person
 * who dropped it will build it, and the model and the build worker load while it is read).
 */
export function documentsWaitingOf(documents: { readyCount: number; reading: boolean }): boolean {
  return documents.readyCount > 0 || documents.reading;
}

/**
 * Starts the build worker as soon as documents wait to be built, so "Build tree" does not wait for it to load
 * (its cl100k tokenizer tables are over a megabyte of script) and connect (~0.5 s on two cores). At once, not
 * after WARMUP_DELAY_MS: the worker is the same whatever the settings, and a person who clicks "Build tree" the
 * moment the document is ready otherwise waited for all of it (issue #44). A start that fails is forgotten: the
 * build starts the worker again and reports its own error.
 */
export function useBuildWorkerWarmup(documentsWaiting: boolean): void {
  useEffect(() => {
    if (documentsWaiting) void buildWorker().catch(() => undefined);
  }, [documentsWaiting]);
}

/**
 * The model to keep warm: none during a build; the build's model (when it runs in the browser) while documents
 * wait to be built; otherwise the open tree's question model, if any.
 */
export function modelToWarm(state: {
  building: boolean;
  documentsWaiting: boolean;
  build: EmbeddingChoice;
  question: ModelChoice | undefined;
}): ModelChoice | undefined {
  if (state.building) return undefined;
  if (state.documentsWaiting) {
    if (state.build.kind !== 'browser') return undefined;
    const { model, dtype, device } = state.build;
    return { model, dtype, device };
  }
  return state.question;
}
