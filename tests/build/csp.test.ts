import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  cspDirectives,
  cspOptionsFromEnv,
  DEFAULT_ENDPOINT_SOURCES,
  HUB_SOURCES,
} from '../../build/csp';

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1)
    .split(' ');

describe('Content-Security-Policy', () => {
  it('allows scripts only from the app, plus WASM compilation and the blob: ONNX Runtime loads', () => {
    const policy = contentSecurityPolicy();
    expect(directive(policy, 'script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", 'blob:']);
    expect(policy).not.toMatch(/'unsafe-inline'|'unsafe-eval'/);
    for (const [, sources] of cspDirectives()) expect(sources).not.toContain('*'); // no wildcard source
    expect(directive(policy, 'object-src')).toEqual(["'none'"]);
    expect(directive(policy, 'base-uri')).toEqual(["'none'"]);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
  });

  it('connects only to the app, the hub and https or loopback endpoints, narrower when the deployment says so', () => {
    expect(directive(contentSecurityPolicy(), 'connect-src')).toEqual([
      "'self'",
      ...HUB_SOURCES,
      ...DEFAULT_ENDPOINT_SOURCES,
    ]);
    const narrow = contentSecurityPolicy(
      cspOptionsFromEnv({
        AERIE_CSP_CONNECT: ' https://api.openai.com  http://localhost:11434 ',
        AERIE_CSP_HUB: 'off',
      }),
    );
    expect(directive(narrow, 'connect-src')).toEqual([
      "'self'",
      'https://api.openai.com',
      'http://localhost:11434',
    ]);
    // Plain http to another machine is never allowed by default.
    expect(directive(contentSecurityPolicy(), 'connect-src')).not.toContain('http:');
  });

  it('a <meta> copy leaves out what only a header can carry; the dev nonce reaches style-src only', () => {
    const meta = contentSecurityPolicy({ delivery: 'meta', reportUri: '/r' });
    expect(meta).not.toMatch(/frame-ancestors|report-uri/);
    const dev = contentSecurityPolicy({ styleNonce: 'abc', reportUri: '/r' });
    expect(directive(dev, 'style-src')).toEqual(["'self'", "'nonce-abc'"]);
    expect(directive(dev, 'script-src')).not.toContain("'nonce-abc'");
    expect(directive(dev, 'report-uri')).toEqual(['/r']);
    expect(cspDirectives().map(([name]) => name)).toContain('worker-src');
  });
});
