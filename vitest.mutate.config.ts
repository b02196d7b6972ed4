/**
 * Vitest settings for mutation testing (stryker.config.mjs): the unit tests of the code under mutation only,
 * so a mutant that every test may reach (a module-level constant) re-runs those files, not the whole suite.
 *
 * Instrumented code runs many times slower (every mutated expression checks which mutant is active, and the
 * initial run counts coverage per test), so the per-test limit is far above `npm test`'s; Stryker applies its
 * own, tighter limit to each mutant from the measured time of the tests that cover it.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * Test files left out of the mutation run: BIC sweeps, clusterings and whole builds on hundreds of points, and
 * chunking properties on long texts. They take seconds in `npm test` (which runs them all) but minutes to tens of
 * minutes instrumented, where every numeric expression of the mixtures reports its coverage (select-k-families
 * alone: 0.8 s → 85 s), and each mutant they reach would re-run them. The modules they exercise keep direct
 * tests on small inputs in the files that stay: select-k-small, cluster-small, cluster-pool-lifecycle, chunk,
 * gmm, gmm-covariance, kmeans, knn, umap, build-contract (NN-descent is umap-js code, not instrumented; UMAP's
 * layout is ours since umap-layout.ts and slower instrumented, but its tests use small layouts).
 */
export const SLOW_TEST_FILES = [
  'tests/core/build.test.ts',
  'tests/core/text/chunk-properties.test.ts',
  'tests/core/cluster/cluster.test.ts',
  'tests/core/cluster/cluster-local-mixture.test.ts',
  'tests/core/cluster/cluster-pool.test.ts',
  'tests/core/cluster/select-k.test.ts',
  'tests/core/cluster/select-k-families.test.ts',
  'tests/core/tree-shape.test.ts',
];

/**
 * Quickest test files first (by their last recorded duration, then size). Vitest's default runs the slowest
 * first; Stryker stops a mutant's run at its first failing test, so a mutant the quick tests kill should not
 * wait for the slow ones.
 */
class QuickestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const cost = (file: TestSpecification) => {
      const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
      return [cache.getFileTestResults(key)?.duration ?? Infinity, cache.getFileStats(key)?.size ?? Infinity];
    };
    return [...files].sort((a, b) => {
      const [da, sa] = cost(a);
      const [db, sb] = cost(b);
      return da - db || sa - sb || (a.moduleId < b.moduleId ? -1 : 1);
    });
  }
}

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // AERIE_MUTATE_TESTS (comma-separated files or globs) replaces the selection, e.g. to include a slow file.
    include: (process.env.AERIE_MUTATE_TESTS ?? 'tests/core/**/*.test.ts').split(','),
    exclude: process.env.AERIE_MUTATE_TESTS
      ? (base.test?.exclude ?? [])
      : [...(base.test?.exclude ?? []), ...SLOW_TEST_FILES],
    testTimeout: 1_800_000,
    sequence: { sequencer: QuickestFirst },
  },
});
