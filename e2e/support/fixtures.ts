/**
 * The `test` every browser spec uses: Playwright's, plus a guard that fails the test on any
 * Content-Security-Policy violation — in the page (its `securitypolicyviolation` events and the browser's CSP
 * console errors) and in its workers (a dedicated worker obeys its own response's policy and reports to the
 * server: the dev and preview servers started with `AERIE_CSP_REPORT=1` keep the reports, see
 * build/security-plugin.ts). The test's browser context carries a cookie naming the test (`CSP_RUN_COOKIE`),
 * which its reports carry too, so a server shared by tests running side by side files each report under its
 * test, and the guard reads and clears only its own. ESLint keeps specs from importing `test` from
 * '@playwright/test' directly.
 */
import { test as base, expect } from '@playwright/test';
import { CSP_REPORT_PATH, CSP_RUN_COOKIE } from '../../build/csp';

export { expect };

/** How long to wait after a test for reports still on their way (browsers send them asynchronously). */
const REPORT_SETTLE_MS = 500;

/** The guard, for tests that start their own server. */
export interface CspGuard {
  /** Also collect the violation reports of the server at `origin` (started with AERIE_CSP_REPORT=1). */
  watch(origin: string): Promise<void>;
  /** Collects that server's reports now (before the test stops it) and stops watching it. */
  collect(origin: string): Promise<void>;
}

declare global {
  interface Window {
    __aerieCspViolation?: (violation: string) => void;
  }
}

/** The reports of `run` the server at `origin` keeps (GET), or those cleared (DELETE). */
async function reports(origin: string, run: string, method: 'GET' | 'DELETE'): Promise<unknown[]> {
  const url = new URL(CSP_REPORT_PATH, origin);
  url.searchParams.set('run', run);
  const response = await fetch(url, { method });
  if (!response.ok) throw new Error(`${origin} does not collect CSP reports (HTTP ${response.status}).`);
  return (await response.json()) as unknown[];
}

function describeReport(report: unknown): string {
  const r = (report as { 'csp-report'?: Record<string, unknown> })['csp-report'] ?? report;
  const {
    'effective-directive': directive,
    'blocked-uri': blocked,
    'document-uri': where,
  } = r as Record<string, unknown>;
  return `${String(directive)} blocked ${String(blocked)} in ${String(where)}`;
}

export const test = base.extend<{ csp: CspGuard }>({
  csp: [
    async ({ context, baseURL }, use, testInfo) => {
      const violations: string[] = [];
      // This test's run, unique among the tests (and retries) of every worker.
      const run = `${testInfo.testId}.${testInfo.retry}.${testInfo.workerIndex}`;
      await context.exposeFunction('__aerieCspViolation', (v: string) => violations.push(v));
      await context.addInitScript(() => {
        addEventListener('securitypolicyviolation', (e) => {
          window.__aerieCspViolation?.(
            `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
          );
        });
      });
      context.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
      });
      const servers = new Set<string>();
      const watch = async (origin: string) => {
        servers.add(origin);
        await context.addCookies([{ name: CSP_RUN_COOKIE, value: run, url: origin }]);
        await reports(origin, run, 'DELETE');
      };
      const collect = async (origin: string) => {
        await new Promise((r) => setTimeout(r, REPORT_SETTLE_MS));
        for (const report of await reports(origin, run, 'DELETE')) violations.push(describeReport(report));
        servers.delete(origin);
      };
      if (baseURL) await watch(baseURL);

      await use({ watch, collect });

      for (const origin of [...servers]) await collect(origin);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});
