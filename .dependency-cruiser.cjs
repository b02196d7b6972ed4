/**
 * The import rules of the house (docs/architecture.md draws them): every arrow points down, no cycles.
 * `npm run deps` checks them (part of `npm test`); a rule broken names the file and the import.
 */
/**
 * Files of a room that may be imported past its door, each with its reason. Most are light: the embed and
 * generate doors load transformers.js, and the page, storage and the build worker need these files' names without
 * a model runtime (tests/build/worker-imports.test.ts holds the page and the workers to what they load).
 */
const PAST_THE_DOOR = [
  // pure data and small helpers: model presets, ids, the batches of a call, when a warm-up may run
  '^src/models/embed/(embedding-presets|reranker-presets|rows|warmup)\\.ts$',
  // the generator's presets, GGUF names, the client of the generate worker, speed figures
  '^src/models/generate/(generator-presets|gguf|generate-client|generation-speed)\\.ts$',
  // loaded on demand (wllama, 10 MB of WebAssembly) for a GGUF model only, so it is not behind the door
  '^src/models/generate/llama-cpp-generator\\.ts$',
  // storage strips API keys (redactSecret) without loading the LLM clients, and the cl100k tables through them
  '^src/llm/errors\\.ts$',
  // Vite's import.meta.glob (PDF.js's bundled CMaps and fonts): Node cannot load it, and the end-to-end specs
  // import the ingest door in Node, so the door leaves this file out
  '^src/ingest/pdf-assets\\.ts$',
  // the text door loads the cl100k tables (tokens.ts, about 1 MB): the embed and ingest workers and the cached
  // results split sentences, test for visible text and estimate a book's chunks without them
  '^src/core/text/(sentences|visible)\\.ts$',
  // the labels worker opens an old tree with the stemmer alone: the labels room takes the stop words and name
  // titles from their file, not through the text door and its cl100k tables (tests/build/worker-imports.test.ts)
  '^src/core/text/stop-words\\.ts$',
  // loaded on demand (`import()`), where a door would be bundled whole: the ingest worker's chunk estimate and
  // the page's retrieval, each a chunk of its own
  '^src/core/text/chunk-estimate\\.ts$',
  '^src/core/search/retrieve\\.ts$',
];

/** Type declarations a file references by path (`/// <reference path>`), which no door can re-export. */
const DECLARATIONS = [
  // PDF.js's worker module has no types of its own; the PDF render worker references their declaration
  '^src/ingest/pdfjs-worker\\.d\\.ts$',
];

/** A file of a room with a door (each model room, each core room, llm, storage, ingest), other than the door. */
const ROOM_FILE = '^src/(models/[a-z]+|core/[a-z]+|llm|storage|ingest)/(?!index\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle, even of types, means two modules are one: move what both need below them.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment: 'src/core is pure TypeScript for Node and workers: it imports nothing else of the project.',
      from: { path: '^src/core/' },
      to: { path: '^(src/(?!core/)|workers/|bench/|scripts/|tests/|e2e/)' },
    },
    {
      name: 'protocol-is-plain-data',
      severity: 'error',
      comment: 'src/protocol describes messages: it may name types of core, llm and models, nothing above.',
      from: { path: '^src/protocol/' },
      to: { path: '^src/(storage|pipeline|client|app|ingest|offline)/' },
    },
    {
      name: 'storage-never-imports-up',
      severity: 'error',
      comment:
        'src/storage owns IndexedDB; the pipeline, the client wrappers and the app build on it, not it on them.',
      from: { path: '^src/storage/' },
      to: { path: '^(src/(pipeline|client|app|ingest|offline)/|workers/)' },
    },
    {
      name: 'models-below-llm',
      severity: 'error',
      comment:
        "src/llm puts the built-in model behind the endpoints' functions (llm/builtin.ts): it may name model types, " +
        'the models never import it. What both need (the chat message, the summary prompt, the limiter) is in core.',
      from: { path: '^src/models/' },
      to: { path: '^src/llm/' },
    },
    {
      name: 'model-rooms-device-and-files-at-the-bottom',
      severity: 'error',
      comment:
        'src/models/device (where a model runs) and src/models/files (where its files come from) import no other ' +
        'model room: embed and generate build on them.',
      from: { path: '^src/models/(device|files)/' },
      to: { path: '^src/models/', pathNot: '^src/models/$1/' },
    },
    {
      name: 'model-rooms-embed-below-generate',
      severity: 'error',
      comment:
        "The generator loads through the embedding room's loader and GPU check; embed never imports generate.",
      from: { path: '^src/models/embed/' },
      to: { path: '^src/models/generate/' },
    },
    {
      name: 'model-rooms-service-below-the-services',
      severity: 'error',
      comment:
        'src/models/service is the skeleton the embed and generate services share (load once, the GPU exit, cancel ' +
        'by request id): it builds on device and files and never imports the rooms that use it.',
      from: { path: '^src/models/service/' },
      to: { path: '^src/models/(embed|generate)/' },
    },
    {
      name: 'spawn-imports-nothing',
      severity: 'error',
      comment:
        'src/spawn holds only the `new Worker(new URL(…))` of each worker (ESLint keeps them there), so any room, ' +
        'the page or a worker, may start a worker from it without loading anything else.',
      from: { path: '^src/spawn/' },
      to: { path: '^(src|workers)/' },
    },
    {
      name: 'doors-are-the-way-in',
      severity: 'error',
      comment:
        'A room with an index.ts (each model room, each core room, llm, storage, ingest) is entered by it, from ' +
        "another room of src/ (a core room from another core room too) and from another room's tests; its own " +
        'files and its mirrored tests (tests/<room>/) may use the files. Exceptions: see pathNot.',
      from: { path: '^(?:src|tests)/((?:models/|core/)?[^/]+)/' },
      to: {
        path: ROOM_FILE,
        pathNot: ['^src/$1/', ...PAST_THE_DOOR],
      },
    },
    {
      name: 'doors-are-the-way-in-from-the-top',
      severity: 'error',
      comment:
        'The same rule for the files in no room: workers, benches, scripts, the end-to-end tests, the page entry ' +
        "and the core's ground floor (src/core/build.ts and the other files beside its rooms).",
      from: { path: '^(workers|bench|scripts|e2e|dev)/|^src/[^/]+$|^src/core/[^/]+$' },
      to: {
        path: ROOM_FILE,
        pathNot: [...PAST_THE_DOOR, ...DECLARATIONS],
      },
    },
    {
      name: 'services-below-the-page',
      severity: 'error',
      comment:
        'What runs in workers (models, pipeline, ingest, llm, rpc) never imports the page (client, app).',
      from: { path: '^src/(models|pipeline|ingest|llm|rpc|protocol|offline)/' },
      to: { path: '^src/(client|app)/' },
    },
    {
      name: 'workers-are-thin',
      severity: 'error',
      comment:
        'A worker file exposes a service built in src/; it reaches the core and the page through none.',
      from: { path: '^workers/' },
      to: { path: '^src/(app|client|core)/' },
    },
    {
      name: 'nothing-imports-a-worker-file',
      severity: 'error',
      comment:
        'Worker API types live in src/ beside the service (derived from it), never in workers/*.worker.ts.',
      from: { path: '^(src|workers|bench|scripts|tests|e2e|dev)/' },
      to: { path: '^workers/' },
    },
    {
      name: 'only-the-page-imports-the-app',
      severity: 'error',
      comment: 'src/app is the top: nothing in src/ below it imports it.',
      from: { path: '^src/(?!app/|main\\.tsx$)' },
      to: { path: '^src/app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.venv|\\.bench-cache|test-results)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
  },
};
