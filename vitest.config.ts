import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One test file per core. Vitest's default (cores − 1) leaves half of CI's two cores idle: its test files are
    // single-threaded, and the main process only collects results (docs/testing.md, "Where the time goes").
    maxWorkers: '100%',
  },
});
