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

/** Wait this long after the needed model changes before loading it (settings being edited, files still dropping). */
export const WARMUP_DELAY_MS = 400;

/** Starts loading `choice` (after WARMUP_DELAY_MS) whenever it changes to another model; undefined: nothing. */
export function useModelWarmup(choice: ModelChoice | undefined): void {
  const key = choice ? `${choice.model}|${choice.dtype ?? 'q8'}|${choice.device ?? 'auto'}` : '';
  const latest = useRef(choice);
  latest.current = choice;
  useEffect(() => {
    if (!key) return;
    const timer = setTimeout(() => {
      const wanted = latest.current;
      if (wanted) void warmEmbedder(wanted).catch(() => undefined);
    }, WARMUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);
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
