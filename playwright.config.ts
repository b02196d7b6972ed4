import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, CHROMIUM_WEBGPU_ARGS } from './e2e/support/chromium';

/** Port of the production preview the app's journeys run against. */
const APP_PORT = Number(process.env.AERIE_E2E_PORT ?? 4173);
/** Port of the dev server that serves the component harness pages under /dev/. */
const DEV_PORT = Number(process.env.AERIE_E2E_DEV_PORT ?? 5173);
/**
 * Servers report Content-Security-Policy violations (pages and workers) to themselves, and every spec's shared
 * fixture (e2e/support/fixtures.ts) fails on any.
 */
const SERVER_ENV = { AERIE_CSP_REPORT: '1' };
/** The WebGPU specs: run only by the WebGPU projects, in a Chromium that offers an adapter. */
const WEBGPU_SPECS = '**/webgpu-*.spec.ts';
/** Of those, the ones on the dev server's harness pages (the rest run the production build). */
const WEBGPU_HARNESS_SPECS = [
  '**/webgpu-agreement.spec.ts',
  '**/webgpu-faults.spec.ts',
  '**/webgpu-llama-cpp.spec.ts',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 240_000,
  expect: { timeout: 30_000 },
  // Two workers, each with its own Chromium, share the servers below, test by test (a file's tests may run in
  // either; a file's `beforeAll` runs in each worker that runs one of them): every test's browser context is new
  // (its own storage), and the CSP guard files each violation report under its test (e2e/support/fixtures.ts).
  // On two cores one test's waits (an LLM's replies, a stream, the quota cache) leave the other the CPU.
  // AERIE_E2E_WORKERS overrides (1: one test at a time, as for step-times' per-test CPU).
  fullyParallel: true,
  workers: Number(process.env.AERIE_E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // Each test's context is new: with the service worker, every test would install Aerie's ~67 MB offline copy.
    // Specs about the offline copy, updates and static hosts opt in (`test.use({ serviceWorkers: 'allow' })`).
    serviceWorkers: 'block',
    // A failed test keeps its trace (actions, DOM snapshots, network, console) without the screencast: recording
    // the screen cost a quarter of the suite's CPU (measured: 7 tests, 67 s of CPU with it, 57 s without, 53 s
    // with no trace at all). The screenshot below still shows a failure's last state.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'app',
      testIgnore: [
        '**/components.spec.ts',
        '**/llama-cpp.spec.ts',
        '**/batched-generation.spec.ts',
        '**/dev-service-worker.spec.ts',
        '**/cold-dev.spec.ts',
        '**/long-conversation.spec.ts',
        '**/model-loads.spec.ts',
        WEBGPU_SPECS,
      ],
      use: { baseURL: `http://127.0.0.1:${APP_PORT}` },
    },
    {
      // The journeys a GPU user takes, on the production build, in a Chromium with WebGPU.
      name: 'webgpu',
      testMatch: WEBGPU_SPECS,
      testIgnore: WEBGPU_HARNESS_SPECS,
      use: {
        baseURL: `http://127.0.0.1:${APP_PORT}`,
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_WEBGPU_ARGS },
      },
    },
    {
      // WebGPU against WASM on the same inputs, and injected faults, through the app's workers (dev harness).
      name: 'webgpu-harness',
      testMatch: WEBGPU_HARNESS_SPECS,
      use: {
        baseURL: `http://localhost:${DEV_PORT}`,
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_WEBGPU_ARGS },
      },
    },
    {
      name: 'components',
      testMatch: [
        '**/components.spec.ts',
        '**/llama-cpp.spec.ts',
        '**/batched-generation.spec.ts',
        // Seeds the app's storage from a harness page on the same origin.
        '**/long-conversation.spec.ts',
        '**/dev-service-worker.spec.ts',
        '**/model-loads.spec.ts',
      ],
      use: { baseURL: `http://localhost:${DEV_PORT}` },
    },
    {
      // Starts `npm run dev` itself, cold, on AERIE_E2E_COLD_PORT (default 5174).
      name: 'cold-dev',
      testMatch: '**/cold-dev.spec.ts',
    },
  ],
  webServer: [
    {
      // The production build, as a user gets it (CSP, COOP/COEP: build/security-plugin.ts).
      command: `npx vite build && npx vite preview --host 127.0.0.1 --port ${APP_PORT} --strictPort`,
      url: `http://127.0.0.1:${APP_PORT}`,
      env: SERVER_ENV,
      reuseExistingServer: false,
      timeout: 300_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // Component harness pages exist only on the dev server.
      command: `npx vite --port ${DEV_PORT} --strictPort`,
      url: `http://localhost:${DEV_PORT}/dev/components.html`,
      env: SERVER_ENV,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
