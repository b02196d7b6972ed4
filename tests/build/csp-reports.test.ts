/**
 * The tests' CSP report endpoint (build/security-plugin.ts `reportEndpoint`, on the dev and preview servers and
 * the tests' static server) files each report under the test it came from, by the cookie the test's browser
 * sends with it (`CSP_RUN_COOKIE`; Chromium sends a same-origin report with its cookies): browser tests running
 * side by side on one server each read, and clear, only their own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_REPORT_PATH, CSP_RUN_COOKIE } from '../../build/csp';
import { reportEndpoint } from '../../build/security-plugin';

let server: Server;
let origin = '';

beforeAll(async () => {
  const endpoint = reportEndpoint();
  server = createServer((req, res) =>
    endpoint(req, res, () => {
      res.statusCode = 404;
      res.end('not the endpoint');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A violation report as a browser POSTs it, from the test `run` (none: no cookie). */
async function report(directive: string, run?: string): Promise<number> {
  const response = await fetch(`${origin}${CSP_REPORT_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/csp-report',
      ...(run === undefined ? {} : { Cookie: `theme=dark; ${CSP_RUN_COOKIE}=${encodeURIComponent(run)}` }),
    },
    body: JSON.stringify({ 'csp-report': { 'effective-directive': directive } }),
  });
  return response.status;
}

/** The directives of the reports of `run` ('' or none: reports without the cookie), read or cleared. */
async function directives(run: string | undefined, method: 'GET' | 'DELETE' = 'GET'): Promise<string[]> {
  const query = run === undefined ? '' : `?run=${encodeURIComponent(run)}`;
  const reports = (await (await fetch(`${origin}${CSP_REPORT_PATH}${query}`, { method })).json()) as {
    'csp-report': { 'effective-directive': string };
  }[];
  return reports.map((r) => r['csp-report']['effective-directive']);
}

describe('the CSP report endpoint', () => {
  it('files each report under the run its cookie names, and lists and clears one run at a time', async () => {
    expect(await report('img-src', 'test-a.0.0')).toBe(204);
    expect(await report('script-src', 'test-b.0.1')).toBe(204);
    expect(await report('connect-src', 'test-a.0.0')).toBe(204);
    expect(await report('worker-src')).toBe(204);

    expect(await directives('test-a.0.0')).toEqual(['img-src', 'connect-src']);
    expect(await directives('test-b.0.1')).toEqual(['script-src']);
    // A report without the cookie is nobody's test's: listed without a run.
    expect(await directives(undefined)).toEqual(['worker-src']);

    // Clearing one run returns its reports and leaves the others'.
    expect(await directives('test-a.0.0', 'DELETE')).toEqual(['img-src', 'connect-src']);
    expect(await directives('test-a.0.0')).toEqual([]);
    expect(await directives('test-b.0.1')).toEqual(['script-src']);
  });

  it('keeps a report that is not JSON, and passes every other path on', async () => {
    const response = await fetch(`${origin}${CSP_REPORT_PATH}`, {
      method: 'POST',
      headers: { Cookie: `${CSP_RUN_COOKIE}=raw` },
      body: 'not json',
    });
    expect(response.status).toBe(204);
    const kept = await (await fetch(`${origin}${CSP_REPORT_PATH}?run=raw`)).json();
    expect(kept).toEqual([{ unparsed: 'not json' }]);
    expect((await fetch(`${origin}/index.html`)).status).toBe(404);
  });
});
