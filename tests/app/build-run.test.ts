/**
 * What the page says when a build stops (build-run.ts): the error's own words end as a sentence before the advice
 * that follows them, whatever punctuation the error brought.
 */
import { describe, expect, it } from 'vitest';
import { asSentence, stopMessage } from '../../src/app/state/build-run';

const failed = { cancelled: false, recorded: true, storageFull: false };

describe('stopMessage', () => {
  it('ends an error without a full stop before "Everything finished so far is kept"', () => {
    const error = new Error(
      'The embedding model "local:aerie-glove-100d" could not be loaded: Failed to fetch',
    );
    expect(stopMessage(error, failed)).toBe(
      'The embedding model "local:aerie-glove-100d" could not be loaded: Failed to fetch. Everything finished so ' +
        'far is kept: resume when the problem is fixed.',
    );
    expect(stopMessage(error, { ...failed, recorded: false })).toMatch(
      /Failed to fetch\. The build was not saved/,
    );
  });

  it('adds nothing to an error that already ends a sentence', () => {
    expect(asSentence('The endpoint said no.')).toBe('The endpoint said no.');
    expect(asSentence('Is the server running?')).toBe('Is the server running?');
    expect(asSentence('The file “a.txt” is empty (0 bytes.)')).toBe('The file “a.txt” is empty (0 bytes.)');
    expect(asSentence('  Quota exceeded  ')).toBe('Quota exceeded.');
  });
});
