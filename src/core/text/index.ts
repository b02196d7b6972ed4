/**
 * The text room: sentences, cl100k tokens, chunks of whole sentences and their estimate, token budgets, stop words and the visible-text check. Everything the rest of the core reads text with; imports nothing but the core's root primitives.
 */
export * from './budget';
export * from './chunk';
export * from './chunk-estimate';
export * from './sentences';
export * from './stop-words';
export * from './tokens';
export * from './visible';
