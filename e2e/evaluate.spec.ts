/**
 * The Evaluate view on a built tree (the sample's ready tree: offline GloVe model, summaries by the FAKE LLM
 * server, which also writes the answers, verdicts and questions here): a question set imported with a bad row,
 * every mode and search setting run, answers and the judge, a cancel and a resume that pays for no finished
 * answer again, the drill-down with the evidence marked, the CSV export, and questions generated after the call
 * count is shown. Every request stays on this machine; the tree is the same afterwards.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { configure, expectOnlyLocalRequests, fakeLlmForFile, recordRequests, treeItems } from './support/app';
import { openReadyTree } from './support/ready-tree';

const llm = fakeLlmForFile();

/** The repository's Cinderella set as CSV (evidence as JSON arrays), with one bad row at line 4. */
function cinderellaCsv(): string {
  const rows = readFileSync('tests/fixtures/eval/cinderella.jsonl', 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const cell = (v: unknown) =>
    v === undefined ? '' : `"${(typeof v === 'string' ? v : JSON.stringify(v)).replace(/"/g, '""')}"`;
  const columns = ['id', 'question', 'answer', 'evidence', 'kind', 'choices', 'gold'];
  const lines = rows.map((r) => columns.map((c) => cell(r[c])).join(','));
  lines.splice(2, 0, '"bad","A question with a bad gold",,,"fact","[""a"",""b""]",7');
  return [columns.join(','), ...lines].join('\n') + '\n';
}

/** Chat requests the fake received, as their messages' JSON. */
const chatBodies = () =>
  llm.modelRequests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => JSON.stringify((r.body as { messages: unknown }).messages));

test('evaluate: import, every mode, answers and judge, cancel and resume, drill-down, export, generate', async ({
  page,
  context,
}) => {
  const urls = recordRequests(context);
  await page.goto('/');
  await configure(page, llm);
  await openReadyTree(page, 'sample');
  const nodes = await (await treeItems(page)).count();

  await page.getByRole('tab', { name: 'Evaluate' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Evaluate' });
  await expect(panel.getByText('No question set yet')).toBeVisible();

  await test.step('import a CSV set: the bad row is named, the good rows kept', async () => {
    await panel
      .getByLabel('Question set file')
      .setInputFiles({ name: 'cinderella.csv', mimeType: 'text/csv', buffer: Buffer.from(cinderellaCsv()) });
    await expect(panel.getByText('cinderella.csv: 8 questions read, 1 row skipped.')).toBeVisible();
    await expect(
      panel.getByText('Row 4, gold: The gold index 7 (from 0) is past the last of 2 choices.'),
    ).toBeVisible();
    await expect(
      panel.getByText(
        /^8 questions · 7 with evidence · 1 multiple choice · 8 with a reference answer · imported/,
      ),
    ).toBeVisible();
  });

  await test.step('the calls are counted before the run; cancel while answering, then resume', async () => {
    // 8 questions × (3 modes × 3 search settings + plain BM25 over the leaves).
    await expect(panel.getByTestId('run-calls')).toHaveText(/^80 retrievals .* no LLM call\.$/);
    await panel.getByLabel(/^Answer with fake-model/).check();
    await panel.getByLabel('Ask it to judge each free answer').check();
    await expect(panel.getByTestId('run-calls')).toHaveText(
      /^80 retrievals .* no LLM call; then 24 answers and 21 verdicts from fake-model/,
    );
    llm.reset();
    llm.configure({ latencyMs: 250 });
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    const runs = panel.getByRole('region', { name: 'Runs' });
    await expect(runs.getByText(/^Answering [1-9]\d* \/ \d+/)).toBeVisible({ timeout: 60_000 });
    await runs.getByRole('button', { name: 'Cancel' }).click();
    await expect(runs.getByText(/^Stopped at answering/)).toBeVisible();
    // What retrieval found is kept and shown.
    await expect(panel.getByRole('table', { name: /^Per mode/ }).getByRole('row')).toHaveCount(11);
    // The same split as `npm run bench retrieval`: recall per kind of question (the set's "arc" and "fact"),
    // plain BM25 over the leaves beside the modes.
    const kinds = panel.getByRole('table', { name: 'Evidence recall by kind of question' });
    await expect(kinds.getByRole('columnheader')).toHaveText(['Mode', 'arc (2)', 'fact (5)']);
    await expect(kinds.getByRole('rowheader', { name: 'Plain BM25 (leaves, no tree)' })).toBeVisible();
    const beforeResume = chatBodies();
    llm.configure({ latencyMs: 0 });
    await runs.getByRole('button', { name: 'Resume' }).click();
    await expect(runs.getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 });
    const all = chatBodies();
    // Only the calls cut short by the cancel (at most the four in flight) were asked again.
    expect(all.length - new Set(all).size).toBeLessThanOrEqual(4);
    expect(all.length).toBeGreaterThan(beforeResume.length);
    await expect(panel.getByRole('columnheader', { name: 'F1' })).toBeVisible();
    await expect(panel.getByRole('columnheader', { name: 'MC acc.' })).toBeVisible();
  });

  await test.step('the same run again costs no LLM call', async () => {
    const before = chatBodies().length;
    await panel.getByText('Question sets and a new run').click();
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    const runs = panel.getByRole('region', { name: 'Runs' });
    await expect(runs.getByText('Done', { exact: true })).toHaveCount(2, { timeout: 60_000 });
    expect(chatBodies().length).toBe(before);
    // Compared with the first run: the same retrieval, so recall and MRR change by ±0 (only times differ).
    const compare = panel.getByLabel('Compare with');
    await compare.focus();
    await compare.selectOption({ index: 1 });
    const table = panel.getByRole('table', { name: /^Per mode: this run, and the compared run/ });
    const firstRow = table.getByRole('row').nth(1).getByRole('cell');
    await expect(firstRow.nth(1)).toHaveText(/^\d\.\d\dwas \d\.\d\d ±0$/);
    await expect(firstRow.nth(2)).toHaveText(/^\d\.\d\dwas \d\.\d\d ±0$/);
  });

  await test.step('drill down: what a mode retrieved, the evidence marked', async () => {
    const questions = panel
      .getByRole('table')
      .filter({ has: page.getByRole('columnheader', { name: 'Kind' }) });
    await questions.getByRole('button', { name: 'Where did Cinderella plant the hazel branch?' }).click();
    const detail = panel.getByRole('article', { name: /Question 2 in detail/ });
    await detail.getByRole('button', { name: /^Leaves only/ }).click();
    await expect(
      detail.getByRole('list', { name: 'Retrieved passages' }).getByRole('listitem').first(),
    ).toBeVisible();
    // Leaves only found this quote (offline model): it is marked inside the passage that holds it.
    await expect(detail.getByRole('list', { name: 'Evidence quotes' })).toContainText('Found');
    const marks = detail.locator('mark.eval-evidence');
    await expect(marks.first()).toBeVisible();
    expect((await marks.allTextContents()).join(' ').toLowerCase().replace(/\s+/g, ' ')).toContain(
      "went to her mother's grave and planted the branch on it",
    );
    await expect(detail.getByText(/Token F1 \d\.\d\d, ROUGE-L \d\.\d\d\./)).toBeVisible();
  });

  await test.step('export the run as CSV', async () => {
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/evaluation\.csv$/);
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.split('\r\n')[0]).toMatch(/^question_index,question_id,question,kind,scoring,mode_key,/);
    // 8 questions × 10 settings (9 and plain BM25), and the header.
    expect(text.trim().split('\r\n')).toHaveLength(1 + 8 * 10);
  });

  await test.step('generate questions: the call count first, each keeping its node', async () => {
    llm.reset();
    // Starting a run folded the set-up away.
    await panel.getByText('Question sets and a new run').click();
    await panel.getByRole('button', { name: 'Generate…' }).click();
    await panel.getByLabel('Questions of each kind').fill('2');
    await expect(panel.getByTestId('generation-calls')).toContainText(
      'This asks fake-model 4 times: 2 detail questions',
    );
    for (let i = 0; i < 4; i++)
      llm.enqueue({ kind: 'reply', text: `Question: What happens in part ${i}?\nAnswer: Part ${i}.` });
    await panel.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect(
      panel.getByRole('radio', { name: 'Generated by fake-model (2 detail, 2 theme)' }),
    ).toBeVisible();
    await expect(
      panel.getByText(/^4 questions · 4 with a gold node · 4 with a reference answer/),
    ).toBeVisible();
    expect(chatBodies()).toHaveLength(4);
  });

  // Evaluation changed nothing: the tree has the same nodes.
  await page.getByRole('tab', { name: 'Tree' }).click();
  await expect(await treeItems(page)).toHaveCount(nodes);
  expectOnlyLocalRequests(urls);
});
