/** Sentence spans of a text: exactly the chunker's sentences (see chunk.ts for the rules). */
export type { TextSpan as SentenceSpan } from './chunk';
export { splitSentences as sentenceSpans } from './chunk';
