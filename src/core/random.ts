/**
 * The one seeded random generator of Aerie. Every random choice (UMAP initialisation and sampling,
 * k-means++ seeding, tie-breaking) draws from a generator made here, so the same seed gives the same tree.
 */

/** A source of uniform numbers in [0, 1), the shape umap-js accepts as `random`. */
export type RandomFn = () => number;

/** Mixes a 32-bit integer (the finaliser of MurmurHash3); used to derive independent seeds. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The state behind each generator `seededRandom` made, so a kernel can draw the same stream (see below). */
const generators = new WeakMap<RandomFn, Sfc32>();

/**
 * A seeded generator (sfc32, a small fast counter-based generator that passes PractRand to 2^40 bytes).
 * @param seed any finite number; non-integers are truncated, negatives wrap to 32 bits.
 */
export function seededRandom(seed: number): RandomFn {
  const a = mix32(seed >>> 0 || 0x9e3779b9);
  const b = mix32(a ^ 0x243f6a88);
  const c = mix32(b ^ 0x85a308d3);
  const state = new Sfc32(a, b, c, 1);
  // Discard the first outputs: sfc32 mixes its state in the first few rounds.
  for (let i = 0; i < 12; i++) state.next();
  const random = () => state.next();
  generators.set(random, state);
  return random;
}

/** sfc32's four 32-bit state words (a, b, c, d), as unsigned integers. */
export type RandomState = [number, number, number, number];

/**
 * The current state of a generator made by `seededRandom` (undefined for any other function). A WebAssembly
 * kernel that runs sfc32 itself (kernels/sfc32.ts) continues the stream from it and hands it back with
 * `setRandomState`, so the draws are the same as if JavaScript had made them.
 */
export function randomState(random: RandomFn): RandomState | undefined {
  const state = generators.get(random);
  return state && state.words();
}

/** Moves a generator made by `seededRandom` to `state` (from `randomState` or a kernel). */
export function setRandomState(random: RandomFn, state: RandomState): void {
  generators.get(random)?.set(state);
}

/**
 * sfc32's state and step. The state lives in an object's fields rather than a closure's variables: V8 keeps
 * such fields unboxed, where 32-bit values in closure variables became a new heap number on every draw
 * (3× slower; UMAP's layout draws tens of millions of numbers).
 */
class Sfc32 {
  constructor(
    private a: number,
    private b: number,
    private c: number,
    private d: number,
  ) {}

  words(): RandomState {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }

  set([a, b, c, d]: RandomState): void {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
  }

  next(): number {
    const { a, b, c, d } = this;
    // Only the low 32 bits of each word matter: every operation below is taken modulo 2^32.
    const t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    this.c = (((c << 21) | (c >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  }
}

/**
 * Derives a seed for a sub-task from a parent seed and labels (layer, cluster index, …), so that
 * independent parts of a build get independent, order-insensitive streams.
 */
export function deriveSeed(seed: number, ...labels: number[]): number {
  let h = mix32((seed >>> 0) ^ 0x5bd1e995);
  for (const label of labels) h = mix32(h ^ mix32((label >>> 0) + 0x9e3779b9));
  return h;
}

/**
 * The stream of a counter-based draw (`counterDraw`): a key mixed once from a seed and its labels, e.g. a
 * layout's seed and one edge's two end points.
 */
export function counterKey(seed: number, ...labels: number[]): number {
  return mix32(deriveSeed(seed, ...labels) ^ 0x5bd1e995);
}

/** The counter's half of a counter-based draw: the same for every key, so computed once per counter. */
export function counterMix(counter: number): number {
  return mix32((counter >>> 0) + 0x9e3779b9);
}

/**
 * A uniform number in [0, 1) that depends only on a key (`counterKey`) and a counter (`counterMix`), not on how
 * many numbers were drawn before it: the draws of one edge of a layout stay the same when another edge draws
 * more or fewer (docs/clustering.md, "Stability"). kernels/mix32.ts draws the same numbers.
 */
export function counterDraw(key: number, mixedCounter: number): number {
  return counterBits(key, mixedCounter) / 4294967296;
}

/** The 32 bits behind `counterDraw`, an unsigned integer (`counterDraw` is them over 2³²). */
export function counterBits(key: number, mixedCounter: number): number {
  return mix32((key ^ mixedCounter) >>> 0);
}

/** A uniform integer in [0, n). */
export function randomInt(random: RandomFn, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}
