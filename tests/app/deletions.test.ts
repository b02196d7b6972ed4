/** Deletions told to every tab (src/app/state/deletions.ts) and what a tab says about them (useTreeDeletions.ts). */
import { describe, expect, it } from 'vitest';
import { asDeletion } from '../../src/app/state/deletions';
import { deletedElsewhereNotice } from '../../src/app/state/useTreeDeletions';

describe('deletion messages', () => {
  it('reads ours and nothing else', () => {
    expect(asDeletion({ kind: 'tree', treeId: 't1' })).toEqual({ kind: 'tree', treeId: 't1' });
    expect(asDeletion({ kind: 'tree', treeId: 't1', replacedBy: 't2' })).toEqual({
      kind: 'tree',
      treeId: 't1',
      replacedBy: 't2',
    });
    expect(asDeletion({ kind: 'eval-set', treeId: 't1', id: 's' })).toEqual({
      kind: 'eval-set',
      treeId: 't1',
      id: 's',
    });
    for (const bad of [
      null,
      'changed',
      { kind: 'tree' },
      { kind: 'eval-run', treeId: 't1' },
      { kind: 'x', treeId: 't' },
    ])
      expect(asDeletion(bad)).toBeUndefined();
  });
});

describe('the notice of a tree deleted in another tab', () => {
  it('says it was deleted there, that work here stopped and that nothing more of it is kept', () => {
    expect(deletedElsewhereNotice('Emma', false)).toMatchObject({
      kind: 'warning',
      title: 'This tree was deleted in another tab',
      body: expect.stringMatching(
        /^“Emma” was deleted in another Aerie tab, so it was closed here\. Anything that ran on it here .* was stopped, and nothing more of it is kept\.$/,
      ),
    });
    expect(deletedElsewhereNotice('Emma', true).title).toBe('This tree was rebuilt in another tab');
  });
});
