/**
 * The ready trees browser tests import instead of building (e2e/support/ready-tree.ts) are what their script
 * says (scripts/fixtures/make-ready-trees.ts): valid tree files of the right document, model and summariser,
 * without labels (so the app labels them when it opens them), and made from the text and model files the
 * repository holds now. A changed sample, book or offline model fails here, naming the command that makes the
 * trees again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTree } from '../../src/core/tree-format';
import { chunkText } from '../../src/core/text';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { READY_TREES, readyTreeInputs, type ReadyTreeName } from '../support/ready-trees';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT));
const manifest = JSON.parse(read('tests/fixtures/ready/manifest.json').toString('utf8')) as Record<
  string,
  { inputs: Record<string, string> }
>;
const REMAKE = 'npx tsx scripts/fixtures/make-ready-trees.ts';

describe.each(Object.keys(READY_TREES) as ReadyTreeName[])('the ready tree “%s”', (name) => {
  const spec = READY_TREES[name];
  const raw = JSON.parse(read(spec.file).toString('utf8')) as { nodes: Record<string, unknown>[] };
  const tree = parseTree(raw);

  it('is a tree of its document, embedded by the offline model, summarised as its script says', () => {
    expect(tree.title).toBe(spec.title);
    expect(tree.documents).toEqual([
      { id: 'd1', name: spec.documentName, chars: read(spec.source).toString('utf8').length },
    ]);
    expect(tree.embedding.model).toBe(OFFLINE_MODEL_ID);
    expect(tree.summarizer).toEqual(
      spec.summaries === 'fake-llm' ? { kind: 'llm', model: 'fake-model' } : { kind: 'extractive' },
    );
    expect(Math.max(...tree.nodes.map((n) => n.layer))).toBeGreaterThanOrEqual(1);
    // Its leaves are the document's chunks as the build cuts them today.
    const text = read(spec.source).toString('utf8');
    const leaves = tree.nodes.filter((n) => n.layer === 0).map((n) => n.text);
    expect(leaves).toEqual(chunkText(text, { maxTokens: tree.params.chunkTokens }).map((c) => c.text));
  });

  it('holds no topic labels: the app computes them when it opens the tree', () => {
    expect(raw.nodes.filter((n) => 'label' in n)).toEqual([]);
  });

  it(`was made from the text and model files the repository holds (else: ${REMAKE} ${name})`, () => {
    const made = manifest[name]?.inputs ?? {};
    const now = Object.fromEntries(
      readyTreeInputs(name).map((path) => [path, createHash('sha256').update(read(path)).digest('hex')]),
    );
    expect(made, `${spec.file} is out of date: run ${REMAKE} ${name}`).toEqual(now);
  });
});
