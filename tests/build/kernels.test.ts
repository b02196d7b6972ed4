/**
 * The WebAssembly kernels committed in src/core/cluster/generated/ are exactly what their AssemblyScript sources in
 * kernels/ compile to (`npm run kernels`): the binary cannot drift from the source it claims to be.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileKernel, generatedPath, KERNELS, renderModule } from '../../scripts/kernels/compile';

describe('the committed WebAssembly kernels', () => {
  for (const spec of KERNELS) {
    it(`src/core/cluster/generated/${spec.name}-wasm.ts is kernels/${spec.name}.ts compiled`, async () => {
      const bytes = await compileKernel(spec);
      expect(readFileSync(generatedPath(spec), 'utf8')).toBe(renderModule(spec, bytes));
    }, 60_000);
  }
});
