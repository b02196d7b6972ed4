/** `npm run kernels`: compiles kernels/*.ts into src/core/cluster/generated/ (see compile.ts). */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { compileKernel, generatedPath, KERNELS, renderModule, ROOT } from './compile';

for (const spec of KERNELS) {
  const bytes = await compileKernel(spec);
  const path = generatedPath(spec);
  writeFileSync(path, renderModule(spec, bytes));
  console.log(`${relative(ROOT, path)}: ${bytes.length} bytes`);
}
