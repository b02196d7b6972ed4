/**
 * A FAKE embedder for unit tests: hashed bag of words. Each lower-cased word maps to a fixed pseudo-random
 * direction (seeded by the word), a text to the normalised sum of its words' directions. Texts sharing
 * words are close, which is enough structure for clustering tests; it is not a language model.
 */
import { deriveSeed, seededRandom } from '../../src/core/random';
import type { EmbedFn } from '../../src/core/types';

const wordVectors = new Map<string, Float32Array>();

function hashWord(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return h >>> 0;
}

function wordVector(word: string, dim: number): Float32Array {
  const key = `${dim}:${word}`;
  let v = wordVectors.get(key);
  if (!v) {
    const random = seededRandom(deriveSeed(hashWord(word), dim));
    v = new Float32Array(dim);
    for (let i = 0; i < dim; i++) v[i] = random() * 2 - 1;
    wordVectors.set(key, v);
  }
  return v;
}

/** Embeds one text with the fake bag-of-words model. */
export function fakeEmbedding(text: string, dim = 64): Float32Array {
  const out = new Float32Array(dim);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    const v = wordVector(w, dim);
    for (let i = 0; i < dim; i++) out[i] += v[i];
  }
  let norm = 0;
  for (let i = 0; i < dim; i++) norm += out[i] * out[i];
  norm = Math.sqrt(norm);
  if (norm === 0) out[0] = 1;
  else for (let i = 0; i < dim; i++) out[i] /= norm;
  return out;
}

/** An EmbedFn over `fakeEmbedding` that also counts the texts it was asked to embed. */
export function createFakeEmbedder(dim = 64): EmbedFn & { calls: string[][] } {
  const calls: string[][] = [];
  const embed = (async (texts: string[]) => {
    calls.push(texts.slice());
    return texts.map((t) => fakeEmbedding(t, dim));
  }) as EmbedFn & { calls: string[][] };
  embed.calls = calls;
  return embed;
}

/** Points drawn around `groups` random unit centres in `dim` dimensions (seeded), with their true group. */
export function blobs(
  groups: number,
  perGroup: number,
  dim: number,
  spread: number,
  seed: number,
): { vectors: Float32Array[]; labels: number[] } {
  const random = seededRandom(seed);
  const gauss = () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const centres = Array.from({ length: groups }, () => Float32Array.from({ length: dim }, gauss));
  const vectors: Float32Array[] = [];
  const labels: number[] = [];
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < perGroup; i++) {
      vectors.push(Float32Array.from(centres[g], (c) => c + spread * gauss()));
      labels.push(g);
    }
  }
  return { vectors, labels };
}
