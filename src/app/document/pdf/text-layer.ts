/**
 * A page's text layer: every text item of the page as transparent text laid over the drawn page, where its
 * glyphs stand (rotated with the page, stretched to the item's width), so the page's words can be selected,
 * read by screen readers and highlighted. A highlight is a `<mark>` around exactly the item characters a
 * citation covers. Written for Aerie (PDF.js's viewer has its own); text is set as text, never as HTML, and
 * styles through the CSSOM (the Content-Security-Policy allows no inline style attribute).
 */
import type { LayoutItem } from '../../../protocol/pdf-layout';

/** The part of a glyph box above the baseline, as a share of the font size (sans-serif). */
const ASCENT = 0.8;

/** Characters [from, to) of an item to highlight, and which cited range they belong to. */
export interface ItemHighlight {
  from: number;
  to: number;
  range: number;
}

/** The product of two PDF matrices [a, b, c, d, e, f]: `m` applied after `n`. */
function multiply(m: readonly number[], n: readonly number[]): number[] {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** `text`'s characters with `highlights` wrapped in marks, appended to `span`. */
function fillSpan(span: HTMLElement, text: string, highlights: readonly ItemHighlight[]): HTMLElement[] {
  const marks: HTMLElement[] = [];
  let at = 0;
  for (const h of [...highlights].sort((a, b) => a.from - b.from)) {
    if (h.from > at) span.append(text.slice(at, h.from));
    const mark = document.createElement('mark');
    mark.className = 'pdf-hit';
    mark.dataset.range = String(h.range);
    mark.textContent = text.slice(Math.max(at, h.from), h.to);
    span.append(mark);
    marks.push(mark);
    at = Math.max(at, h.to);
  }
  if (at < text.length) span.append(text.slice(at));
  return marks;
}

/**
 * Fills `layer` with the page's items (see the module comment).
 * @param viewport the transform (PDF user space → CSS pixels) and scale the page was drawn with.
 * @param highlights per item index, the characters to highlight.
 * @returns the marks, in reading order.
 */
export function buildTextLayer(
  layer: HTMLElement,
  items: readonly (LayoutItem | object)[],
  viewport: { transform: number[]; scale: number },
  highlights: ReadonlyMap<number, readonly ItemHighlight[]>,
): HTMLElement[] {
  layer.replaceChildren();
  const measure = document.createElement('canvas').getContext('2d');
  const marks: HTMLElement[] = [];
  items.forEach((item, index) => {
    if (!('str' in item) || item.str.length === 0) return;
    const m = multiply(viewport.transform, item.transform);
    const angle = Math.atan2(m[1], m[0]);
    const size = Math.hypot(m[2], m[3]);
    if (!(size > 0)) return;
    const span = document.createElement('span');
    span.className = 'pdf-text';
    span.style.left = `${m[4] + ASCENT * size * Math.sin(angle)}px`;
    span.style.top = `${m[5] - ASCENT * size * Math.cos(angle)}px`;
    span.style.fontSize = `${size}px`;
    const width = (item as { width?: number }).width ?? 0;
    let scaleX = 1;
    if (measure && width > 0) {
      measure.font = `${size}px sans-serif`;
      const natural = measure.measureText(item.str).width;
      if (natural > 0) scaleX = (width * viewport.scale) / natural;
    }
    span.style.transform = `rotate(${angle}rad) scaleX(${scaleX})`;
    marks.push(...fillSpan(span, item.str, highlights.get(index) ?? []));
    layer.append(span);
  });
  return marks;
}
