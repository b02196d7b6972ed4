/** The view tabs' keyboard (the ARIA tabs pattern): arrows move and wrap, Home and End go to the ends. */
import { describe, expect, it } from 'vitest';
import { tabAfterKey, VIEW_LABELS } from '../../src/app/state/useViewTabs';

describe('the view tabs', () => {
  it('are Tree, Document, Statistics, Evaluate in that order', () => {
    expect(Object.values(VIEW_LABELS)).toEqual(['Tree', 'Document', 'Statistics', 'Evaluate']);
  });

  it('move right and left with the arrows, wrapping at the ends', () => {
    expect(tabAfterKey('tree', 'ArrowRight')).toBe('document');
    expect(tabAfterKey('eval', 'ArrowRight')).toBe('tree');
    expect(tabAfterKey('tree', 'ArrowLeft')).toBe('eval');
    expect(tabAfterKey('stats', 'ArrowLeft')).toBe('document');
  });

  it('go to the first and last tab with Home and End, and ignore other keys', () => {
    expect(tabAfterKey('stats', 'Home')).toBe('tree');
    expect(tabAfterKey('document', 'End')).toBe('eval');
    expect(tabAfterKey('document', 'Enter')).toBeUndefined();
    expect(tabAfterKey('document', 'ArrowDown')).toBeUndefined();
  });
});
