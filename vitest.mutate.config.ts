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
    include: (process.env.AERIE_MUTATE_TESTS ?? 'tests/core/**/*.test.ts').split(','),
    testTimeout: 1_800_000,
    sequence: { sequencer: QuickestFirst },
  },
});
