/**
 * The installed transformers.js still has the two promise chains build/transformers-fix.ts repairs, and the fix
 * changes exactly them (e2e/model-loads.spec.ts shows the effect in Chromium).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAIN_FIXES, fixTransformersChains } from '../../build/transformers-fix';

const require = createRequire(import.meta.url);
/** The package's Node entry lives in dist/, beside the browser module. */
const dist = path.dirname(require.resolve('@huggingface/transformers'));

describe('the transformers.js chain fix', () => {
  it('finds and repairs both chains in the browser module the app bundles', () => {
    const code = readFileSync(path.join(dist, 'transformers.web.js'), 'utf8');
    const fixed = fixTransformersChains(code);
    for (const { find, replace } of CHAIN_FIXES) {
      expect(fixed).not.toContain(find);
      expect(fixed.split(replace)).toHaveLength(2);
    }
    expect(fixed.length - code.length).toBe(
      CHAIN_FIXES.reduce((sum, f) => sum + f.replace.length - f.find.length, 0),
    );
  });

  it('refuses a module where a chain is missing, so a changed transformers.js is noticed', () => {
    expect(() => fixTransformersChains('let webInitChain = Promise.resolve();')).toThrow(/found it 0 times/);
  });

  it('a fixed chain goes on after a rejection and still reports each call its own error', async () => {
    let chain: Promise<unknown> = Promise.resolve();
    const next = (work: () => Promise<string>) => (chain = chain.catch(() => undefined).then(work));
    await expect(next(() => Promise.reject(new Error('corrupt file')))).rejects.toThrow('corrupt file');
    await expect(next(() => Promise.resolve('loaded'))).resolves.toBe('loaded');
  });
});
