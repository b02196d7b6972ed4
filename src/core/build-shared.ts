/** Pieces of the build other modules need without loading the clustering code (the page, the cache). */
import { AerieError } from './errors';

/** Texts sent to `embed` per call; progress is reported after each call. */
export const EMBED_BATCH = 64;

/** Errors raised by the build itself (model errors pass through unchanged). */
export class BuildError extends AerieError<
  'EMPTY_INPUT' | 'BAD_EMBEDDING' | 'EMPTY_SUMMARY' | 'INVALID_PARAM'
> {}
