/**
 * The text room: sentences, cl100k tokens, chunks of whole sentences and their estimate, token budgets, stop words
 * and the visible-text check. Everything the rest of the core reads text with; imports nothing but the core's root
 * primitives.
 *
 * Workers that must start light import the file itself: tokens.ts, and chunk, chunk-estimate and budget which use
 * it, load the cl100k tables (a megabyte of script); sentences, visible and stop-words load nothing
 * (tests/build/worker-imports.test.ts keeps the embedding and labels workers free of them).
 */
export * from './budget';
export * from './chunk';
export * from './chunk-estimate';
export * from './headings';
export * from './sentences';
export * from './stop-words';
export * from './tokens';
export * from './visible';
