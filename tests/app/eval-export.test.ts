import { describe, expect, it } from 'vitest';
import { csvCell, CSV_COLUMNS, runToCsv, runToJson } from '../../src/app/eval/export';
import { newRun } from '../../src/app/eval/run-evaluation';
import { parseCsv, evaluateRetrieval } from '../../src/core/eval';
import { makeTree } from '../support/storage-fixture';

describe('evaluation exports', () => {
  it('quotes CSV cells that need it and makes formula-like text inert', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"\nc')).toBe('"a, ""b""\nc"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-2 + 3')).toBe("'-2 + 3");
    expect(csvCell(0.5)).toBe('0.5');
    expect(csvCell(NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(false)).toBe('false');
  });

  it('writes one row per question and mode that reads back, and JSON with the run and its report', async () => {
    const tree = makeTree();
    const questions = [
      { question: 'Where, "exactly"?', evidence: ['slippers'], kind: 'fact' },
      { question: '=1+1', goldNode: 12 },
    ];
    const report = await evaluateRetrieval(tree, questions, {
      embedQuery: async (texts) => texts.map(() => tree.nodes[0].embedding),
      variants: [
        { mode: 'collapsed', search: 'meaning' },
        { mode: 'leaves', search: 'meaning' },
      ],
    });
    const run = {
      ...newRun(
        'r',
        't',
        { id: 's', name: 'set', questions },
        tree,
        { searches: ['meaning'], maxTokens: 2000, traversalTopK: 5, answers: false, judge: false },
        0,
      ),
      report,
      status: 'done' as const,
    };
    const rows = parseCsv(runToCsv(run));
    expect(rows[0].cells).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + 2 * 2);
    const first = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, rows[1].cells[i]]));
    const key = Object.keys(report.modes)[0];
    expect(first).toMatchObject({
      question_index: '1',
      question: 'Where, "exactly"?',
      kind: 'fact',
      scoring: 'evidence',
      mode_key: key,
      mode: 'collapsed',
      search: 'meaning',
      retrieved_ids: report.perQuestion[0].modes[key].nodes.join(' '),
      context_tokens: String(report.perQuestion[0].modes[key].tokens),
    });
    expect(rows[3].cells[2]).toBe("'=1+1");
    const json = JSON.parse(runToJson(run)) as { format: string; run: { setName: string }; report: unknown };
    expect(json.format).toBe('aerie-eval-run');
    expect(json.run.setName).toBe('set');
    expect(json.report).toEqual(JSON.parse(JSON.stringify(report)));
  });
});
