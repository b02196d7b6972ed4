/**
 * One failed model load must not break the loads after it. transformers.js 4.3.1 (dist/transformers.web.js)
 * serialises every ONNX session creation, and every run, in a browser on one module-level promise chain:
 * `webInitChain = webInitChain.then(load)`. Once one `load` rejects (a corrupt or missing file, a WebGPU device
 * that cannot be created), the chain stays rejected and every later `.then(load)` rejects with that first error
 * without running: every model load in that worker fails until the page reloads (seen: a failed GloVe fp32 load
 * made the reranker and the tiny MiniLM fail too). The run chain has the same flaw, so one failed WebGPU run
 * would fail every later run, WASM ones included, and no fallback could work. huggingface/transformers.js#1767
 * reports the same memoised rejection in Node.
 *
 * This rewrites both chains to go on after a rejection (`chain.catch(() => undefined).then(next)`): each call
 * still waits for the one before it and still gets its own error. Applied when Vite builds the app and when it
 * pre-bundles dependencies for the dev server; the build fails if the code it fixes is not found exactly once (a
 * new transformers.js: check whether it still needs this).
 */
import type { Plugin } from 'vite';

/** The module it patches. */
const TRANSFORMERS_WEB = /@huggingface[\\/]transformers[\\/]dist[\\/]transformers\.web(?:\.min)?\.js$/;

/** Each chain's assignment as transformers.js 4.3.1 writes it, and its fix. */
export const CHAIN_FIXES: readonly { find: string; replace: string }[] = [
  {
    find: 'webInitChain = webInitChain.then(load)',
    replace: 'webInitChain = webInitChain.catch(() => undefined).then(load)',
  },
  {
    find: 'webInferenceChain = webInferenceChain.then(run)',
    replace: 'webInferenceChain = webInferenceChain.catch(() => undefined).then(run)',
  },
];

/**
 * transformers.js's browser module with its chains fixed.
 * @throws Error when a chain is not found exactly once (the module changed).
 */
export function fixTransformersChains(code: string): string {
  let fixed = code;
  for (const { find, replace } of CHAIN_FIXES) {
    const count = fixed.split(find).length - 1;
    if (count !== 1) {
      throw new Error(
        `build/transformers-fix.ts: expected "${find}" once in transformers.js, found it ${count} times; ` +
          'check whether this transformers.js still poisons its session chain and update the fix.',
      );
    }
    fixed = fixed.replace(find, replace);
  }
  return fixed;
}

/** The plugin (for Vite's build and, as a Rolldown plugin, for its dependency pre-bundling). */
export function transformersChainFix(): Plugin {
  return {
    name: 'aerie-transformers-chain-fix',
    transform(code, id) {
      if (!TRANSFORMERS_WEB.test(id.split('?')[0])) return null;
      return { code: fixTransformersChains(code), map: null };
    },
  };
}
