/**
 * A k-means++ seeding shared by a BIC sweep's ks (`KMeansPlusPlusSeeding`): its first k centres are exactly a new
 * seeding's of k centres from the same seed, for every k of its trial count, with draws by position or keyed by
 * ids, whether it is asked for k centres at once or taken further from fewer; and k-means refuses a seeding of
 * another trial count.
 */
import { describe, expect, it } from 'vitest';
import { kmeans, kmeansPlusPlus, KMeansPlusPlusSeeding, localTrials } from '../../../src/core/cluster/kmeans';
import { seededRandom } from '../../../src/core/random';

const N = 90;
const DIM = 3;
const r = seededRandom(21);
const DATA = Float64Array.from({ length: N * DIM }, () => r() * 10);
const IDS = Array.from({ length: N }, (_, i) => 1000 + 7 * i);

describe('KMeansPlusPlusSeeding', () => {
  for (const ids of [undefined, IDS]) {
    it(`gives kmeansPlusPlus's centres for every k of its trial count (draws ${ids ? 'keyed by ids' : 'by position'})`, () => {
      // ks 8 … 20 all draw 4 candidates a centre (2 + ⌊ln k⌋).
      const ks = Array.from({ length: 13 }, (_, i) => 8 + i);
      expect(new Set(ks.map(localTrials))).toEqual(new Set([4]));
      const shared = new KMeansPlusPlusSeeding(DATA, N, DIM, 4, seededRandom(3), ids);
      // Asked for in a scrambled order: taken further, or a prefix of what it has.
      for (const k of [12, 8, 20, 15, 9]) {
        expect(Array.from(shared.centers(k))).toEqual(
          Array.from(kmeansPlusPlus(DATA, N, DIM, k, seededRandom(3), ids)),
        );
      }
      // Another trial count is another seeding: the centres differ.
      expect(
        Array.from(kmeansPlusPlus(DATA, N, DIM, 21, seededRandom(3), ids).subarray(0, 20 * DIM)),
      ).not.toEqual(Array.from(shared.centers(20)));
    });
  }

  it('starts k-means as a new seeding would, and is refused for a k of another trial count', () => {
    const shared = new KMeansPlusPlusSeeding(DATA, N, DIM, localTrials(10), seededRandom(4), IDS);
    const own = kmeans(DATA, N, DIM, 10, seededRandom(4), { ids: IDS });
    const taken = kmeans(DATA, N, DIM, 10, seededRandom(99), { ids: IDS, seeding: shared });
    expect(Array.from(taken.labels)).toEqual(Array.from(own.labels));
    expect(Array.from(taken.centers)).toEqual(Array.from(own.centers));
    expect(() => kmeans(DATA, N, DIM, 30, seededRandom(4), { seeding: shared })).toThrow(
      /4 trials.*30 centres/,
    );
  });
});
