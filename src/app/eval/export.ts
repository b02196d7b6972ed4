/**
 * A run as files: JSON (the run's settings, the tree as it was, the questions and the whole report, in the
 * shape `npm run eval` writes) and CSV (one row per question and mode, for a spreadsheet). Neither holds an API
 * key: runs never store one.
 */
import type { EvalRunRecord } from '../../storage';

/** Cells a spreadsheet would run as a formula start with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: quoted when it holds a delimiter, quote or line break; a formula-like text made inert. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV columns, in order. */
export const CSV_COLUMNS = [
  'question_index',
  'question_id',
  'question',
  'kind',
  'scoring',
  'mode_key',
  'mode',
  'search',
  'recall',
  'first_hit_rank',
  'reciprocal_rank',
  'evidence_found',
  'context_tokens',
  'time_ms',
  'retrieved_ids',
  'answer',
  'picked',
  'correct',
  'token_f1',
  'rouge_l',
  'judge',
] as const;

/** One row per question and mode of the run's report (header row first); empty without a report. */
export function runToCsv(run: EvalRunRecord): string {
  const report = run.report;
  if (!report) return '';
  const lines = [CSV_COLUMNS.join(',')];
  for (const q of report.perQuestion) {
    for (const [key, result] of Object.entries(q.modes)) {
      const entry = report.modes[key];
      const found = result.found ? `${result.found.filter(Boolean).length}/${result.found.length}` : null;
      const cells = [
        q.index + 1,
        q.id,
        q.question,
        q.kind,
        q.scoring,
        key,
        entry?.mode,
        entry?.search,
        result.recall,
        result.firstHit,
        result.firstHit === null ? null : result.firstHit > 0 ? 1 / result.firstHit : 0,
        found,
        result.tokens,
        Number(result.timeMs.toFixed(3)),
        result.nodes.join(' '),
        result.answer?.text,
        result.answer?.picked,
        result.answer?.correct,
        result.answer?.f1,
        result.answer?.rougeL,
        result.answer?.judge,
      ];
      lines.push(cells.map(csvCell).join(','));
    }
  }
  return lines.join('\r\n') + '\r\n';
}

/** The run as JSON: its settings, the tree as it was, the questions and the report. */
export function runToJson(run: EvalRunRecord): string {
  const { id, createdAt, updatedAt, setName, options, tree, answerModel, status, questions, report, error } =
    run;
  return (
    JSON.stringify(
      {
        format: 'aerie-eval-run',
        version: 1,
        run: {
          id,
          createdAt: new Date(createdAt).toISOString(),
          updatedAt: new Date(updatedAt).toISOString(),
          setName,
          status,
          options,
          tree,
          answerModel,
          error,
        },
        questions,
        report,
      },
      null,
      2,
    ) + '\n'
  );
}
