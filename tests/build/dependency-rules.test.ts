/**
 * The house's import rules (.dependency-cruiser.cjs, run by `npm run deps` in `npm test`) catch what they are
 * for: a small project in a temporary folder breaks one rule at a time, and dependency-cruiser — run with the
 * repository's own configuration — must fail naming that rule; the same project without the bad import passes.
 * dependency-cruiser runs in this process through its API (what its CLI calls, with the project's folder as its
 * `baseDir`), not as one process per project: each process paid ~1.3 s of CPU loading it and TypeScript.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise as depcruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** A clean little house: app → pipeline → storage (by its door) → core, a worker exposing a service. */
const CLEAN: Record<string, string> = {
  'src/core/text/index.ts': "export const words = (s: string) => s.split(' ');\n",
  'src/core/build.ts': "import { words } from './text';\nexport const build = (s: string) => words(s);\n",
  'src/storage/trees.ts':
    "import { build } from '../core/build';\nexport const save = (s: string) => build(s);\n",
  'src/storage/index.ts': "export { save } from './trees';\n",
  'src/pipeline/build-service.ts':
    "import { save } from '../storage';\nexport const buildService = { run: (s: string) => save(s) };\nexport type BuildApi = typeof buildService;\n",
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

/** Rooms with doors: llm (door and one file), two model rooms (device below embed), their users and a test. */
const ROOMS: Record<string, string> = {
  'src/llm/chat.ts': 'export const chat = (s: string) => s;\n',
  'src/llm/index.ts': "export { chat } from './chat';\n",
  'src/llm/answer.ts': "import { chat } from './chat';\nexport const answer = (s: string) => chat(s);\n",
  'src/models/device/webgpu.ts': 'export const probe = () => false;\n',
  'src/models/device/index.ts': "export { probe } from './webgpu';\n",
  'src/models/embed/embedder.ts':
    "import { probe } from '../device';\nexport const embed = (s: string) => (probe() ? [] : [s.length]);\n",
  'src/models/embed/embedding-presets.ts': "export const DEFAULT_MODEL_ID = 'tiny';\n",
  'src/models/embed/index.ts':
    "export { embed } from './embedder';\nexport { DEFAULT_MODEL_ID } from './embedding-presets';\n",
  'src/pipeline/answer-service.ts':
    "import { answer } from '../llm';\nimport { embed } from '../models/embed';\nexport const ask = (s: string) => [answer(s), embed(s)];\n",
  'src/app/model-label.ts':
    "import { DEFAULT_MODEL_ID } from '../models/embed/embedding-presets';\nexport const label = DEFAULT_MODEL_ID;\n",
  'tests/llm/chat.test.ts': "import { chat } from '../../src/llm/chat';\nexport const t = chat('a');\n",
};

/**
 * Writes the project (CLEAN with `changes`), runs the rules on it as `depcruise --config .dependency-cruiser.cjs
 * --output-type err src workers [tests]` run in its folder would; the violations' output, or '' when clean.
 */
async function cruise(changes: Record<string, string> = {}): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'aerie-deps-'));
  const files: Record<string, string> = {
    ...CLEAN,
    ...changes,
    'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const options = await extractDepcruiseOptions(CONFIG);
  // The configuration names `tsconfig.json`, which the CLI reads from the folder it runs in: the project's.
  const tsConfigFile = join(dir, options.tsConfig!.fileName!);
  const result = await depcruise(
    ['src', 'workers', ...(files['tests/llm/chat.test.ts'] ? ['tests'] : [])],
    { ...options, tsConfig: { fileName: tsConfigFile }, baseDir: dir, outputType: 'err' },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  return result.exitCode === 0 ? '' : String(result.output);
}

describe('the import rules', () => {
  it('pass a house whose imports all point down', async () => {
    expect(await cruise()).toBe('');
  }, 60_000);

  it('fail an import that points up: the core importing storage', async () => {
    const out = await cruise({
      'src/core/build.ts':
        "import { save } from '../storage/trees';\nexport const build = (s: string) => save(s);\n",
    });
    expect(out).toContain('core-imports-only-core');
    expect(out).toContain('src/core/build.ts → src/storage/trees.ts');
  }, 60_000);

  it('fail storage importing the pipeline, even for a type', async () => {
    const out = await cruise({
      'src/storage/trees.ts':
        "import { build } from '../core/build';\nimport type { BuildApi } from '../pipeline/build-service';\nexport const save = (s: string, _?: BuildApi) => build(s);\n",
    });
    expect(out).toContain('storage-never-imports-up');
  }, 60_000);

  it('fail a cycle of types, a worker reaching into the core, and an import of a worker file', async () => {
    const out = await cruise({
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

  it('pass rooms entered by their doors, by their own files and tests, and a listed light file', async () => {
    expect(await cruise(ROOMS)).toBe('');
  }, 60_000);

  it('fail storage importing ingest (drawn above it), even for a type', async () => {
    const out = await cruise({
      'src/ingest/types.ts': "export type IngestType = 'txt' | 'pdf';\n",
      'src/storage/trees.ts':
        "import { build } from '../core/build';\nimport type { IngestType } from '../ingest/types';\nexport const save = (s: string, _?: IngestType) => build(s);\n",
    });
    expect(out).toContain('storage-never-imports-up');
    expect(out).toContain('src/storage/trees.ts → src/ingest/types.ts');
  }, 60_000);

  it('fail the models importing llm, even by its door', async () => {
    const out = await cruise({
      ...ROOMS,
      'src/models/embed/embedder.ts':
        "import { chat } from '../../llm';\nexport const embed = (s: string) => [chat(s).length];\n",
    });
    expect(out).toContain('models-below-llm');
    expect(out).toContain('src/models/embed/embedder.ts → src/llm/index.ts');
  }, 60_000);

  it('fail a model room importing one above it: device → embed, embed → generate', async () => {
    const out = await cruise({
      ...ROOMS,
      'src/models/device/webgpu.ts':
        "import { DEFAULT_MODEL_ID } from '../embed';\nexport const probe = () => DEFAULT_MODEL_ID === '';\n",
      'src/models/generate/index.ts': 'export const generate = (s: string) => s;\n',
      'src/models/embed/embedding-presets.ts':
        "import { generate } from '../generate';\nexport const DEFAULT_MODEL_ID = generate('tiny');\n",
    });
    expect(out).toContain('model-rooms-device-and-files-at-the-bottom');
    expect(out).toContain('model-rooms-embed-below-generate');
  }, 60_000);

  it('fail an import past a door, from a room below the page and from a worker', async () => {
    const out = await cruise({
      ...ROOMS,
      'src/pipeline/answer-service.ts':
        "import { chat } from '../llm/chat';\nimport { embed } from '../models/embed/embedder';\nexport const ask = (s: string) => [chat(s), embed(s)];\n",
      'workers/answer.worker.ts': "import { chat } from '../src/llm/chat';\nexport default chat;\n",
    });
    expect(out).toContain('doors-are-the-way-in: src/pipeline/answer-service.ts → src/llm/chat.ts');
    expect(out).toContain(
      'doors-are-the-way-in: src/pipeline/answer-service.ts → src/models/embed/embedder.ts',
    );
    expect(out).toContain('doors-are-the-way-in-from-the-top: workers/answer.worker.ts → src/llm/chat.ts');
  }, 60_000);

  it("fail an import past a core room's door from storage, a worker and another room's test", async () => {
    const out = await cruise({
      ...ROOMS,
      'src/core/text/words.ts': "export const words = (s: string) => s.split(' ');\n",
      'src/core/text/index.ts': "export { words } from './words';\n",
      'src/storage/trees.ts':
        "import { words } from '../core/text/words';\nexport const save = (s: string) => words(s);\n",
      'workers/count.worker.ts': "import { words } from '../src/core/text/words';\nexport default words;\n",
      'tests/core/text/words.test.ts':
        "import { words } from '../../../src/core/text/words';\nexport const t = words('a');\n",
      'tests/core/search/find.test.ts':
        "import { words } from '../../../src/core/text/words';\nexport const t = words('a');\n",
    });
    expect(out).toContain('doors-are-the-way-in: src/storage/trees.ts → src/core/text/words.ts');
    expect(out).toContain(
      'doors-are-the-way-in-from-the-top: workers/count.worker.ts → src/core/text/words.ts',
    );
    expect(out).toContain('doors-are-the-way-in: tests/core/search/find.test.ts → src/core/text/words.ts');
    // the room's mirrored tests may use the room's files
    expect(out).not.toContain('tests/core/text/words.test.ts →');
  }, 60_000);

  it("fail an import past a core room's door from another core room and from the core's ground floor", async () => {
    const out = await cruise({
      'src/core/text/words.ts': "export const words = (s: string) => s.split(' ');\n",
      'src/core/text/count.ts':
        "import { words } from './words';\nexport const count = (s: string) => words(s).length;\n",
      'src/core/text/index.ts': "export { words } from './words';\nexport { count } from './count';\n",
      'src/core/search/find.ts':
        "import { words } from '../text/words';\nexport const find = (s: string) => words(s)[0];\n",
      'src/core/build.ts':
        "import { words } from './text/words';\nexport const build = (s: string) => words(s);\n",
    });
    expect(out).toContain('doors-are-the-way-in: src/core/search/find.ts → src/core/text/words.ts');
    expect(out).toContain('doors-are-the-way-in-from-the-top: src/core/build.ts → src/core/text/words.ts');
    // a core room's own files use each other directly
    expect(out).not.toContain('src/core/text/count.ts →');
  }, 60_000);

  it('fail the model-service skeleton importing a service room, and a worker starter importing anything', async () => {
    const out = await cruise({
      ...ROOMS,
      'src/models/service/model-slot.ts':
        "import { embed } from '../embed';\nexport const slot = (s: string) => embed(s);\n",
      'src/models/service/index.ts': "export { slot } from './model-slot';\n",
      'src/spawn/build.ts':
        "import { buildService } from '../pipeline/build-service';\nexport const startBuildWorker = () => buildService;\n",
    });
    expect(out).toContain(
      'model-rooms-service-below-the-services: src/models/service/model-slot.ts → src/models/embed',
    );
    expect(out).toContain('spawn-imports-nothing: src/spawn/build.ts → src/pipeline/build-service.ts');
  }, 60_000);
});
