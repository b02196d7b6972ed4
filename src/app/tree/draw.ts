/**
 * Paints a planned frame (icicle.ts) on a 2-D canvas: cells and runs, labels (across, or up the side of a
 * narrow cell), counts, leaf text at deep zoom, and the marks — each retrieval mode's selection (a strip on
 * top, the cell tinted), the selections below a node (a strip and a count at its foot), Find matches, extra
 * parents, the active node and the hovered one. Colours come from the theme's CSS variables (resolved through
 * a probe element, since a custom property read directly returns `light-dark(…)` unresolved).
 */
import { RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import type { Hierarchy } from './hierarchy';
import type { Frame, Item } from './icicle';
import type { SubtreeCounts } from './marks';
import { scoreIntensity, type SelectionIndex } from './selection';

/** The theme's colours, resolved to what a canvas understands. */
export interface Palette {
  bg: string;
  cell: string;
  cellLeaf: string;
  run: string;
  text: string;
  muted: string;
  border: string;
  focus: string;
  find: string;
  modes: Record<RetrievalMode, string>;
}

const PALETTE_VARIABLES = {
  bg: '--color-surface',
  cell: '--color-node-fill',
  cellLeaf: '--color-surface-sunken',
  run: '--color-surface-sunken',
  text: '--color-text',
  muted: '--color-text-muted',
  border: '--color-border',
  focus: '--color-focus',
  find: '--color-mark',
} as const;

/** Reads the palette from the CSS variables in force at `element`. */
export function readPalette(element: HTMLElement): Palette {
  const probe = document.createElement('span');
  probe.hidden = true;
  element.appendChild(probe);
  const resolve = (variable: string) => {
    probe.style.color = `var(${variable})`;
    return getComputedStyle(probe).color;
  };
  const colours = Object.fromEntries(
    Object.entries(PALETTE_VARIABLES).map(([key, variable]) => [key, resolve(variable)]),
  ) as Omit<Palette, 'modes'>;
  const modes = Object.fromEntries(
    RETRIEVAL_MODES.map((m) => [m, resolve(`--mode-${m}`)]),
  ) as Palette['modes'];
  probe.remove();
  return { ...colours, modes };
}

/** What a frame paints beside the plan. */
export interface DrawInput {
  frame: Frame;
  h: Hierarchy;
  palette: Palette;
  /** Lines a summary shows: its title (if any), then its label's terms; a leaf's text. */
  linesOf(id: number): readonly string[];
  selection: SelectionIndex;
  counts: SubtreeCounts;
  /** Find matches in each primary subtree (itself included), and whether a node matches itself. */
  findCounts: Int32Array | undefined;
  isMatch(id: number): boolean;
  /** Nodes with more than one parent. */
  hasExtraParents(id: number): boolean;
  active: number | null;
  hover: Item | null;
}

const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const FONT_BOLD = `600 ${FONT}`;
const FONT_SMALL = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LINE_HEIGHT = 15;
const PAD = 5;
/** Height of each mode's strip on a selected node (top) and under a node with selections below (foot). */
const STRIP = 4;
const FOOT_STRIP = 3;
/** Width of the Find mark on the left of a node with matches below it. */
const FIND_EDGE = 4;
/** Size of the corner mark of a node with extra parents. */
const EXTRA_PARENT_MARK = 7;

/** Width cache per font, so a frame measures each string once. */
const widths = new Map<string, number>();
function measure(ctx: CanvasRenderingContext2D, text: string): number {
  const key = `${ctx.font}\u0000${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    if (widths.size > 20_000) widths.clear();
    w = ctx.measureText(text).width;
    widths.set(key, w);
  }
  return w;
}

/** `text` cut with an ellipsis to fit `max` pixels (binary search on its length). */
function fit(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (max <= 0) return '';
  if (measure(ctx, text) <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(ctx, `${text.slice(0, mid)}…`) <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo).trimEnd()}…`;
}

/** Greedy lines: terms joined by " · " while they fit, each term cut to the width when alone. */
function wrapTerms(
  ctx: CanvasRenderingContext2D,
  terms: readonly string[],
  max: number,
  lines: number,
): string[] {
  const out: string[] = [];
  let line = '';
  for (const term of terms) {
    const joined = line === '' ? term : `${line} · ${term}`;
    if (measure(ctx, joined) <= max) {
      line = joined;
      continue;
    }
    if (line !== '') out.push(line);
    if (out.length === lines) return out;
    line = fit(ctx, term, max);
  }
  if (line !== '' && out.length < lines) out.push(line);
  return out;
}

/**
 * Words of a leaf's text over lines of `max` pixels. A line's width is the sum of its words' and spaces'
 * (each word measured once and cached, as words repeat across a book's leaves), not a measure of every longer
 * prefix: a deep zoom that first shows a dozen leaves of sixty words then costs a few hundred cached look-ups
 * instead of as many new `measureText` calls.
 */
function wrapWords(ctx: CanvasRenderingContext2D, text: string, max: number, lines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const space = measure(ctx, ' ');
  const out: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const word of words) {
    const w = measure(ctx, word);
    const joined = line === '' ? w : lineWidth + space + w;
    if (joined <= max) {
      line = line === '' ? word : `${line} ${word}`;
      lineWidth = joined;
      continue;
    }
    out.push(line === '' ? fit(ctx, word, max) : line);
    if (out.length === lines) {
      out[lines - 1] = fit(ctx, `${out[lines - 1]}…`, max);
      return out;
    }
    line = word;
    lineWidth = w;
  }
  if (line !== '' && out.length < lines) out.push(line);
  return out;
}

/** Paints one frame. The context is in CSS pixels (the caller scales for the device pixel ratio). */
export function drawFrame(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { frame, palette } = input;
  const { width, height } = frame.size;
  ctx.fillStyle = palette.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.textBaseline = 'top';
  for (let layer = frame.items.length - 1; layer >= 0; layer--) {
    const top = frame.rows.top[layer];
    const rowHeight = frame.rows.height[layer];
    for (const item of frame.items[layer]) drawItem(ctx, input, item, top, rowHeight);
  }
}

function drawItem(
  ctx: CanvasRenderingContext2D,
  input: DrawInput,
  item: Item,
  top: number,
  rowHeight: number,
) {
  const { palette, h, frame } = input;
  const gap = item.w >= 4 ? 1 : 0;
  const x = item.x + gap;
  const w = Math.max(item.w - gap * 2, 0.75);
  const y = top + 1;
  const hgt = rowHeight - 2;
  const isRun = item.id === -1;
  ctx.fillStyle = isRun ? palette.run : item.layer === 0 ? palette.cellLeaf : palette.cell;
  ctx.fillRect(x, y, w, hgt);
  if (w >= 3) {
    ctx.strokeStyle = palette.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, hgt - 1);
  }

  // Own selection: the cell tinted with the first mode's colour, a strip per mode on top.
  const own = ownModes(input, item);
  if (!isRun && own.length > 0) {
    const marks = input.selection.byNode.get(item.id)!;
    ctx.globalAlpha = 0.18 + 0.3 * scoreIntensity(input.selection, marks[0].score);
    ctx.fillStyle = palette.modes[own[0]];
    ctx.fillRect(x, y, w, hgt);
    ctx.globalAlpha = 1;
  }
  own.forEach((mode, k) => {
    ctx.fillStyle = palette.modes[mode];
    ctx.fillRect(x, y + k * STRIP, w, STRIP);
  });

  // Selections below: a strip per mode at the foot, with the count when it fits.
  const below = belowCounts(input, item);
  below.forEach(([mode], k) => {
    ctx.fillStyle = palette.modes[mode];
    ctx.fillRect(x, y + hgt - FOOT_STRIP * (below.length - k), w, FOOT_STRIP);
  });
  drawFootCounts(ctx, input, below, x, w, y + hgt - FOOT_STRIP * below.length);

  // Find: an outline on a match, a mark on the left of a node with matches below.
  if (input.findCounts !== undefined && input.findCounts.length > 0) {
    const selfMatch = !isRun && input.isMatch(item.id);
    const inside = runOrSubtreeMatches(input, item) - (selfMatch ? 1 : 0);
    if (selfMatch) {
      ctx.strokeStyle = palette.text;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y + 1, Math.max(0, w - 2), hgt - 2);
      ctx.fillStyle = palette.find;
      ctx.globalAlpha = 0.55;
      ctx.fillRect(x + 2, y + 2, Math.max(0, w - 4), hgt - 4);
      ctx.globalAlpha = 1;
    } else if (inside > 0) {
      ctx.fillStyle = palette.find;
      ctx.fillRect(x, y, Math.min(w, FIND_EDGE), hgt);
      ctx.strokeStyle = palette.muted;
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 0.5, Math.min(w, FIND_EDGE) - 1, hgt - 1);
    }
  }

  // Clip text to the cell and to the canvas; text starts where the cell becomes visible.
  const visibleLeft = Math.max(x, 0);
  const visibleRight = Math.min(x + w, frame.size.width);
  const textWidth = visibleRight - visibleLeft - 2 * PAD;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, hgt);
  ctx.clip();
  ctx.fillStyle = palette.text;
  const textTop = y + PAD + own.length * STRIP;
  const textBottom = y + hgt - PAD - below.length * FOOT_STRIP;
  const lineRoom = Math.floor((textBottom - textTop) / LINE_HEIGHT);
  if (isRun) {
    drawRunCount(ctx, input, item, visibleLeft, visibleRight, y, hgt);
  } else if (item.text === 'label' && lineRoom >= 1) {
    const lines =
      item.layer === 0
        ? wrapWords(ctx, input.linesOf(item.id).join(' '), textWidth, lineRoom)
        : summaryLines(ctx, input, item.id, textWidth, lineRoom);
    lines.forEach((line, k) => {
      ctx.font = k === 0 && item.layer > 0 ? FONT_BOLD : FONT;
      ctx.fillText(line, visibleLeft + PAD, textTop + k * LINE_HEIGHT);
    });
  } else if (item.text === 'sideways' && item.layer > 0) {
    ctx.font = FONT_SMALL;
    const terms = input.linesOf(item.id);
    const text = fit(ctx, terms.join(' · ') || String(h.kids[item.id].length), textBottom - textTop);
    ctx.translate(x + w / 2 - 6, textBottom);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(text, 0, 0);
  } else if (item.layer > 0 || item.text !== 'none') {
    ctx.font = FONT_SMALL;
    ctx.fillStyle = palette.muted;
    const count = String(item.layer > 0 ? h.kids[item.id].length : '');
    if (count !== '' && measure(ctx, count) <= w - 2) {
      ctx.fillText(count, x + (w - measure(ctx, count)) / 2, textTop);
    }
  }
  ctx.restore();

  if (!isRun && w >= 2 * EXTRA_PARENT_MARK && input.hasExtraParents(item.id)) {
    ctx.fillStyle = palette.muted;
    ctx.beginPath();
    ctx.moveTo(x + w - EXTRA_PARENT_MARK - 1, y + 1);
    ctx.lineTo(x + w - 1, y + 1);
    ctx.lineTo(x + w - 1, y + 1 + EXTRA_PARENT_MARK);
    ctx.closePath();
    ctx.fill();
  }
  if (input.hover !== null && input.hover.layer === item.layer && input.hover.from === item.from) {
    ctx.fillStyle = palette.text;
    ctx.globalAlpha = 0.08;
    ctx.fillRect(x, y, w, hgt);
    ctx.globalAlpha = 1;
  }
  if (input.active !== null && !isRun && item.id === input.active) {
    ctx.strokeStyle = palette.focus;
    ctx.lineWidth = 3;
    ctx.strokeRect(x + 1.5, y + 1.5, Math.max(0, w - 3), hgt - 3);
  } else if (input.active !== null && isRun && h.layer[input.active] === item.layer) {
    const id = input.active;
    if (h.start[id] >= item.start && h.start[id] < item.start + item.span) {
      ctx.strokeStyle = palette.focus;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y + 1, Math.max(0, w - 2), hgt - 2);
    }
  }
}

/** A summary's lines: its title (if any) and label terms, wrapped; its child count on the last free line. */
function summaryLines(
  ctx: CanvasRenderingContext2D,
  input: DrawInput,
  id: number,
  max: number,
  room: number,
): string[] {
  ctx.font = FONT_BOLD;
  const terms = input.linesOf(id);
  const lines = terms.length === 0 ? [] : wrapTerms(ctx, terms, max, Math.max(1, room - 1));
  const kids = input.h.kids[id].length;
  ctx.font = FONT;
  const count = `${kids} ${kids === 1 ? 'child' : 'children'}`;
  if (lines.length < room && measure(ctx, count) <= max) lines.push(count);
  else if (lines.length === 0) lines.push(fit(ctx, String(kids), max));
  return lines;
}

/** Modes that selected the item's node itself (none for a run: its members' marks show as strips below). */
function ownModes(input: DrawInput, item: Item): RetrievalMode[] {
  if (item.id === -1) return [];
  return input.selection.byNode.get(item.id)?.map((m) => m.mode) ?? [];
}

/** Per mode with any, how many selected nodes lie in the item (a run: its members' subtrees). */
function belowCounts(input: DrawInput, item: Item): [RetrievalMode, number][] {
  const out: [RetrievalMode, number][] = [];
  const row = input.h.rows[item.layer];
  for (const mode of input.selection.modes) {
    const counts = input.counts[mode];
    if (counts === undefined) continue;
    let n = 0;
    for (let k = item.from; k < item.to; k++) n += counts[row[k]];
    if (item.id !== -1 && input.selection.byNode.get(item.id)?.some((m) => m.mode === mode)) n--;
    if (n > 0) out.push([mode, n]);
  }
  return out;
}

function runOrSubtreeMatches(input: DrawInput, item: Item): number {
  const row = input.h.rows[item.layer];
  let n = 0;
  for (let k = item.from; k < item.to; k++) n += input.findCounts![row[k]];
  return n;
}

/** The per-mode counts of selections below, as small numbers in the mode's colour above the foot strips. */
function drawFootCounts(
  ctx: CanvasRenderingContext2D,
  input: DrawInput,
  below: readonly [RetrievalMode, number][],
  x: number,
  w: number,
  bottom: number,
) {
  if (below.length === 0) return;
  ctx.font = FONT_SMALL;
  const texts = below.map(([, n]) => `● ${n}`);
  const total = texts.reduce((sum, t) => sum + measure(ctx, t) + 6, 0);
  if (total > w - 2 * PAD) return;
  let at = x + w - PAD - total;
  below.forEach(([mode], k) => {
    ctx.fillStyle = input.palette.modes[mode];
    ctx.fillText(texts[k], at, bottom - LINE_HEIGHT);
    at += measure(ctx, texts[k]) + 6;
  });
}

/** A run: how many nodes it holds, centred in its visible part. */
function drawRunCount(
  ctx: CanvasRenderingContext2D,
  input: DrawInput,
  item: Item,
  left: number,
  right: number,
  y: number,
  hgt: number,
) {
  ctx.font = FONT_SMALL;
  ctx.fillStyle = input.palette.muted;
  const n = item.to - item.from;
  const text = String(n);
  const w = measure(ctx, text);
  if (w > right - left - 2) return;
  ctx.fillText(text, left + (right - left - w) / 2, y + Math.min(PAD + STRIP, hgt / 2 - 6));
}
