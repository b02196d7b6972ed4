/**
 * A report as a Markdown table (what `npm run eval` prints and benches quote): one row per variant with its
 * evidence recall (overall and per question kind), MRR, hit rate, context tokens, retrieval time and the share
 * of retrieved nodes per layer. Numbers are written with fixed decimals and a dot, so tables diff cleanly.
 */
import type { RetrievalReport } from './report';

/** Decimals of shares and means in the table. */
const SHARE_DECIMALS = 2;
const TIME_DECIMALS = 1;
const PERCENT = 100;
const NONE = '–';

const share = (v: number | null | undefined) =>
  v === null || v === undefined ? NONE : v.toFixed(SHARE_DECIMALS);

/** "L0 71% · L1 22% · L2 <1%": layers that supplied at least one node. */
export function layerMix(layers: readonly number[]): string {
  const percent = (s: number) => (Math.round(s * PERCENT) === 0 ? '<1' : String(Math.round(s * PERCENT)));
  const parts = layers.flatMap((s, layer) => (s > 0 ? [`L${layer} ${percent(s)}%`] : []));
  return parts.length ? parts.join(' · ') : NONE;
}

/** The report's modes as a Markdown table; a kind column per question kind, answer columns when answered. */
export function reportTable(report: RetrievalReport): string {
  const modes = Object.values(report.modes);
  const kinds = [...new Set(modes.flatMap((m) => Object.keys(m.byKind)))].filter((k) => k !== '').sort();
  const answered = modes.some((m) => m.answers);
  const judged = modes.some((m) => m.answers && m.answers.judged > 0);
  const header = [
    'mode',
    'questions',
    'evidence recall',
    ...kinds.map((k) => `recall: ${k}`),
    'MRR',
    'hit rate',
    'context tokens',
    'ms/question',
    'layers',
    ...(answered ? ['MC accuracy', 'token F1', 'ROUGE-L'] : []),
    ...(judged ? ['judge'] : []),
  ];
  const rows = modes.map((m) => [
    m.key,
    String(m.questions),
    share(m.evidenceRecall),
    ...kinds.map((k) => share(m.byKind[k]?.evidenceRecall)),
    share(m.mrr),
    share(m.hitRate),
    m.contextTokens === null ? NONE : String(Math.round(m.contextTokens)),
    m.timeMs === null ? NONE : m.timeMs.toFixed(TIME_DECIMALS),
    layerMix(m.layers),
    ...(answered ? [share(m.answers?.accuracy), share(m.answers?.f1), share(m.answers?.rougeL)] : []),
    ...(judged ? [share(m.answers?.judge)] : []),
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const textColumns = new Set([0, header.indexOf('layers')]);
  const rule = `|${header.map((_, i) => (textColumns.has(i) ? ' --- ' : ' ---: ')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
