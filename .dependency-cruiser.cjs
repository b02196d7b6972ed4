/**
 * The import rules of the house (docs/architecture.md draws them): every arrow points down, no cycles.
 * `npm run deps` checks them (part of `npm test`); a rule broken names the file and the import.
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
      to: { path: '^(src/(pipeline|client|app)/|workers/)' },
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
