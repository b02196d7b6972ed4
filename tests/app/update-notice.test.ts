/** What the page says about a new version and about evicted trees (useServiceWorker.ts, useLibrary.ts). */
import { describe, expect, it } from 'vitest';
import { isolationNotice, updateNotice } from '../../src/app/state/useServiceWorker';
import { evictionNotice } from '../../src/app/state/useLibrary';

describe('the update notice', () => {
  it('says nothing until a version waits or another tab took one', () => {
    expect(updateNotice({ ready: false, elsewhere: false, wanted: false })).toBeUndefined();
  });

  it('offers Reload, and says the old version keeps working until then', () => {
    const notice = updateNotice({ ready: true, elsewhere: false, wanted: false, busy: 'build' });
    expect(notice?.title).toBe('A new version of Aerie is ready');
    expect(notice?.body).toMatch(/keeps working, offline too, until you reload/);
    expect(notice?.action).toBe('reload');
  });

  it('once chosen during work, says the reload waits for it, and offers to take the choice back', () => {
    for (const busy of ['build', 'answer', 'evaluation'] as const) {
      const notice = updateNotice({ ready: true, elsewhere: false, wanted: true, busy });
      expect(notice?.body).toBe(`Aerie reloads as soon as the ${busy} has finished.`);
      expect(notice?.action).toBe('not-now');
    }
  });

  it('tells a tab another tab updated that it still runs the old version', () => {
    const notice = updateNotice({ ready: false, elsewhere: true, wanted: false });
    expect(notice?.title).toBe('Aerie was updated in another tab');
    expect(notice?.body).toMatch(/still runs the previous version/);
  });
});

describe('the eviction notice', () => {
  it('names every tree the browser removed', () => {
    expect(evictionNotice([{ id: 'a', title: 'Emma' }]).title).toBe('The browser removed the tree “Emma”');
    const two = evictionNotice([
      { id: 'a', title: 'Emma' },
      { id: 'b', title: 'Persuasion' },
    ]);
    expect(two.title).toBe('The browser removed 2 trees: “Emma”, “Persuasion”');
    expect(two.kind).toBe('error');
    expect(two.body).toMatch(/Import an exported copy/);
  });
});

describe('the note of a page a headerless host left without cross-origin isolation', () => {
  it('stays until dismissed and offers the reload it asks for (issue 41)', () => {
    let reloads = 0;
    const notice = isolationNotice(() => reloads++);
    expect(notice.sticky).toBe(true);
    expect(notice.kind).toBe('info');
    expect(notice.body).toMatch(/^Reload the page when convenient: the models then use every core/);
    expect(notice.body).toContain(
      'A reload waits for a build, an answer or an evaluation in progress to finish.',
    );
    expect(notice.actions?.map((a) => a.label)).toEqual(['Reload']);
    notice.actions![0].onClick();
    expect(reloads).toBe(1);
  });
});
