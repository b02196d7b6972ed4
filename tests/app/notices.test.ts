/** How notices stack (src/app/state/useNotices.ts `addNotice`): keyed ones replace, repeats are counted. */
import { describe, expect, it } from 'vitest';
import { addNotice, type NoticeItem } from '../../src/app/state/useNotices';

describe('addNotice', () => {
  it('adds new notices last, replaces a keyed one, and counts an identical one instead of piling it up', () => {
    let list: NoticeItem[] = [];
    list = addNotice(list, { kind: 'error', title: 'Import failed', body: 'bad JSON' }, 'a');
    list = addNotice(list, { kind: 'warning', title: 'Offline model', key: 'fallback' }, 'b');
    list = addNotice(list, { kind: 'error', title: 'Import failed', body: 'bad JSON' }, 'c');
    list = addNotice(list, { kind: 'error', title: 'Import failed', body: 'bad JSON' }, 'd');
    expect(list.map((n) => [n.id, n.repeats])).toEqual([
      ['b', 1],
      ['d', 3],
    ]);
    // Another body is another notice; a keyed notice replaces its predecessor without counting.
    list = addNotice(list, { kind: 'error', title: 'Import failed', body: 'not a tree' }, 'e');
    list = addNotice(list, { kind: 'warning', title: 'Offline model again', key: 'fallback' }, 'f');
    expect(list.map((n) => [n.id, n.title, n.repeats])).toEqual([
      ['d', 'Import failed', 3],
      ['e', 'Import failed', 1],
      ['f', 'Offline model again', 1],
    ]);
  });
});
