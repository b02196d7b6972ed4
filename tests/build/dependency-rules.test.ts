/**
 * The house's import rules (.dependency-cruiser.cjs, run by `npm run deps` in `npm test`) catch what they are
 * for: a small project in a temporary folder breaks one rule at a time, and dependency-cruiser — run with the
 * repository's own configuration — must fail naming that rule; the same project without the bad import passes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** A clean little house: app → pipeline → storage → core, a worker exposing a service. */
const CLEAN: Record<string, string> = {
  'src/core/text/index.ts': "export const words = (s: string) => s.split(' ');\n",
  'src/core/build.ts': "import { words } from './text';\nexport const build = (s: string) => words(s);\n",
  'src/storage/trees.ts':
    "import { build } from '../core/build';\nexport const save = (s: string) => build(s);\n",
  'src/pipeline/build-service.ts':
    "import { save } from '../storage/trees';\nexport const buildService = { run: (s: string) => save(s) };\nexport type BuildApi = typeof buildService;\n",
  'workers/build.worker.ts':
    "import { buildService } from '../src/pipeline/build-service';\nexport default buildService;\n",
  'src/app/App.tsx':
    "import type { BuildApi } from '../pipeline/build-service';\nexport const App = (api: BuildApi) => api.run('a b');\n",
};

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes the project (CLEAN with `changes`), runs the rules on it; the violations' output, or '' when clean. */
function cruise(changes: Record<string, string> = {}): string {
  dir = mkdtempSync(join(tmpdir(), 'aerie-deps-'));
  const files = { ...CLEAN, ...changes, 'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n' };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    execFileSync(
      process.execPath,
      [CLI, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err', 'src', 'workers'],
      { cwd: dir, encoding: 'utf8', stdio: 'pipe' },
    );
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('the import rules', () => {
  it('pass a house whose imports all point down', () => {
    expect(cruise()).toBe('');
  }, 60_000);

  it('fail an import that points up: the core importing storage', () => {
    const out = cruise({
      'src/core/build.ts':
        "import { save } from '../storage/trees';\nexport const build = (s: string) => save(s);\n",
    });
    expect(out).toContain('core-imports-only-core');
    expect(out).toContain('src/core/build.ts → src/storage/trees.ts');
  }, 60_000);

  it('fail storage importing the pipeline, even for a type', () => {
    const out = cruise({
      'src/storage/trees.ts':
        "import { build } from '../core/build';\nimport type { BuildApi } from '../pipeline/build-service';\nexport const save = (s: string, _?: BuildApi) => build(s);\n",
    });
    expect(out).toContain('storage-never-imports-up');
  }, 60_000);

  it('fail a cycle of types, a worker reaching into the core, and an import of a worker file', () => {
    const out = cruise({
      'src/core/text/index.ts':
        "import type { build } from '../build';\nexport const words = (s: string): ReturnType<typeof build> => s.split(' ');\n",
      'workers/build.worker.ts':
        "import { words } from '../src/core/text';\nimport { buildService } from '../src/pipeline/build-service';\nexport default [buildService, words];\n",
      'src/app/App.tsx': "import api from '../../workers/build.worker';\nexport const App = () => api;\n",
    });
    expect(out).toContain('no-cycles');
    expect(out).toContain('workers-are-thin');
    expect(out).toContain('nothing-imports-a-worker-file');
  }, 60_000);
});
