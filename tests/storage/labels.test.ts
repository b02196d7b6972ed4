/**
 * Topic labels in IndexedDB (FAKE IndexedDB): stored with a tree's nodes, read back with it, and added later
 * to a tree stored before labels existed without touching anything else.
 */
import { describe, expect, it } from 'vitest';
import { completeTree, exportTree, loadTree, saveNodeLabels } from '../../src/storage';
import { parseTree } from '../../src/core/tree-format';
import { openFixture } from '../support/storage-fixture';

describe('labels in storage (fake IndexedDB)', () => {
  it('stores the labels and titles of a finished tree and loads them back', async () => {
    const { db, treeId, tree } = await openFixture();
    const labelled = { ...tree, nodes: tree.nodes.map((n) => ({ ...n })) };
    const summary = labelled.nodes.find((n) => n.layer > 0)!;
    summary.label = ['slippers', 'pumpkins'];
    summary.title = 'The ball';
    await completeTree(db, treeId, labelled);
    const loaded = await loadTree(db, treeId);
    expect(loaded.nodes[summary.id].label).toEqual(['slippers', 'pumpkins']);
    expect(loaded.nodes[summary.id].title).toBe('The ball');
    expect(loaded.nodes[0].label).toBeUndefined();
  });

  it('adds labels to a tree stored without them, keeping every other field, and exports them', async () => {
    const { db, treeId, tree } = await openFixture();
    const before = await loadTree(db, treeId);
    expect(before.nodes.every((n) => n.label === undefined)).toBe(true);
    const summaries = before.nodes.filter((n) => n.layer > 0);
    const updated = await saveNodeLabels(db, treeId, [
      ...summaries.map((n) => ({ id: n.id, label: [`topic ${n.id}`] })),
      { id: 10_000, label: ['gone'] },
    ]);
    expect(updated).toBe(summaries.length);
    const after = await loadTree(db, treeId);
    after.nodes.forEach((node, i) => {
      const { label, ...rest } = node;
      expect(rest).toEqual(before.nodes[i]);
      expect(label).toEqual(node.layer > 0 ? [`topic ${node.id}`] : undefined);
    });
    const exported = parseTree(await exportTree(db, treeId));
    expect(exported.nodes[summaries[0].id].label).toEqual([`topic ${summaries[0].id}`]);
    expect(tree.nodes.length).toBe(after.nodes.length);
    await expect(saveNodeLabels(db, 'missing', [])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
