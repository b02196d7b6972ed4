import { describe, expect, it } from 'vitest';
import { setsPolicy, withMissingHeaders } from '../../src/offline/headers';

const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Content-Security-Policy': "default-src 'self'",
};

describe('the headers the service worker adds', () => {
  it('go on pages and worker scripts only: their own response sets their policy', () => {
    expect(setsPolicy({ mode: 'navigate', destination: 'document' })).toBe(true);
    expect(setsPolicy({ mode: 'same-origin', destination: 'worker' })).toBe(true);
    expect(setsPolicy({ mode: 'same-origin', destination: 'sharedworker' })).toBe(true);
    for (const destination of ['script', '', 'image', 'style'])
      expect(setsPolicy({ mode: 'cors', destination })).toBe(false);
  });

  it('fill in what a host without headers left out, and keep the body and status', async () => {
    const plain = new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html' } });
    const out = withMissingHeaders(plain, HEADERS);
    expect(Object.fromEntries(out.headers)).toEqual({
      'content-type': 'text/html',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'content-security-policy': "default-src 'self'",
    });
    expect(out.status).toBe(200);
    expect(await out.text()).toBe('<!doctype html>');
  });

  it('keep a header the host sent (a narrower policy stays narrower), and change nothing when none is missing', () => {
    const narrow = new Response('x', {
      headers: {
        'Content-Security-Policy': "default-src 'none'",
        'Cross-Origin-Opener-Policy': 'same-origin',
      },
    });
    const out = withMissingHeaders(narrow, HEADERS);
    expect(out.headers.get('Content-Security-Policy')).toBe("default-src 'none'");
    expect(out.headers.get('Cross-Origin-Embedder-Policy')).toBe('require-corp');
    const complete = new Response('x', { headers: HEADERS });
    expect(withMissingHeaders(complete, HEADERS)).toBe(complete);
  });

  it('rebuild a response that must have no body, and leave an error response alone', () => {
    expect(withMissingHeaders(new Response(null, { status: 204 }), HEADERS).status).toBe(204);
    const error = Response.error();
    expect(withMissingHeaders(error, HEADERS)).toBe(error);
  });
});
