/**
 * The installed app and the offline copy as the build declares them (build/pwa.ts): the manifest a browser
 * installs from, its icons as drawn, the files kept offline, and the headers the service worker adds.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, CSP_REPORT_PATH, SECURITY_HEADERS } from '../../build/csp';
import { PRECACHE_GLOBS, swHeaders, THEME_COLOR, WEB_APP_MANIFEST } from '../../build/pwa';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): [number, number] {
  const bytes = readFileSync(new URL(`../../public/${file}`, import.meta.url));
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('the web app manifest', () => {
  it('has what an installable app needs: names, a standalone window, start URL and scope in the app', () => {
    expect(WEB_APP_MANIFEST).toMatchObject({
      name: expect.stringMatching(/^Aerie/),
      short_name: 'Aerie',
      display: 'standalone',
      start_url: './',
      scope: './',
    });
    expect(WEB_APP_MANIFEST.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('the page’s theme colour and touch icon are the manifest’s', () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    expect(html).toContain(`<meta name="theme-color" content="${THEME_COLOR}" />`);
    expect(WEB_APP_MANIFEST.theme_color).toBe(THEME_COLOR);
    const touch = /<link rel="apple-touch-icon" href="\/([^"]+)"/.exec(html)?.[1];
    expect(WEB_APP_MANIFEST.icons.map((i) => i.src)).toContain(touch);
  });

  it('lists 192 and 512 px PNG icons and a maskable one, each file the size it claims', () => {
    const sizes = WEB_APP_MANIFEST.icons.map((i) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(WEB_APP_MANIFEST.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of WEB_APP_MANIFEST.icons) {
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(icon.src), icon.src).toEqual([w, h]);
    }
  });
});

describe('the offline copy', () => {
  it('keeps the shell, both ONNX Runtime builds, llama.cpp, PDF.js and the offline model, not the test models', () => {
    expect(PRECACHE_GLOBS).toEqual(
      expect.arrayContaining([
        'index.html',
        'assets/**/*',
        'ort/*',
        'wllama/*',
        'models/aerie-glove-100d/**/*',
      ]),
    );
    expect(PRECACHE_GLOBS.some((g) => /aerie-tiny|models\/\*\*/.test(g))).toBe(false);
  });
});

describe('the headers the service worker adds where a host sent none', () => {
  it('are the app’s security headers and the header policy (with frame-ancestors, which a <meta> cannot carry)', () => {
    const headers = swHeaders({});
    expect(headers).toEqual({ ...SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy() });
    expect(headers['Content-Security-Policy']).toMatch(/frame-ancestors 'none'/);
    expect(headers['Content-Security-Policy']).not.toMatch(/report-uri/);
  });

  it('report violations where the tests’ servers collect them, and follow a narrowed policy', () => {
    expect(swHeaders({ AERIE_CSP_REPORT: '1' })['Content-Security-Policy']).toMatch(
      new RegExp(`report-uri ${CSP_REPORT_PATH}$`),
    );
    expect(swHeaders({ AERIE_CSP_HUB: 'off' })['Content-Security-Policy']).not.toMatch(/huggingface/);
  });
});
