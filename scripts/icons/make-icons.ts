/**
 * Draws the installed app's icons (public/icons/*.png) from the favicon's design, in Debian's Chromium (the
 * browser the tests use; no image library needed). Run after changing public/favicon.svg:
 *
 *   npx tsx scripts/icons/make-icons.ts
 *
 * `aerie-192.png` and `aerie-512.png` are the favicon as it is (rounded square, transparent corners);
 * `aerie-maskable-512.png` fills the whole square with the logo's blue and keeps the mark inside the central
 * 80 % circle a launcher may crop to (the "maskable" safe zone of the web app manifest spec).
 */
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium';

const FAVICON = new URL('../../public/favicon.svg', import.meta.url);
const OUT = new URL('../../public/icons/', import.meta.url);
/** Share of a maskable icon's side that its mark may use (the safe zone's circle has 80 % of the side). */
const MASKABLE_MARK_SHARE = 0.62;
/** The logo's blue (the favicon's background). */
const LOGO_BLUE = '#1f4e79';

function page(svg: string, size: number, maskable: boolean): string {
  const mark = maskable
    ? `<div style="width:${size}px;height:${size}px;background:${LOGO_BLUE};display:grid;place-items:center">` +
      `<div style="width:${Math.round(size * MASKABLE_MARK_SHARE)}px;height:${Math.round(size * MASKABLE_MARK_SHARE)}px">` +
      `${svg.replace(/<rect[^>]*\/>/, '')}</div></div>`
    : `<div style="width:${size}px;height:${size}px">${svg}</div>`;
  return `<!doctype html><html><body style="margin:0;background:transparent">${mark}</body></html>`.replace(
    /<svg /,
    '<svg width="100%" height="100%" ',
  );
}

const svg = readFileSync(FAVICON, 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const [name, size, maskable] of [
    ['aerie-192.png', 192, false],
    ['aerie-512.png', 512, false],
    ['aerie-maskable-512.png', 512, true],
  ] as const) {
    const tab = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await tab.setContent(page(svg, size, maskable));
    await tab.screenshot({ path: new URL(name, OUT).pathname, omitBackground: true });
    await tab.close();
    console.log(`public/icons/${name}: ${size}×${size}${maskable ? ', maskable' : ''}`);
  }
} finally {
  await browser.close();
}
