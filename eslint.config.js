import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Packages the pure core must never import: it runs in Node and in workers. */
const NOT_IN_CORE = ['react', 'react-dom', 'd3', 'd3-*', 'idb', 'comlink', '@huggingface/transformers'];

/** The import rule of src/core files: no package of NOT_IN_CORE, and nothing outside src/core (`outside`). */
function coreImports(...outside) {
  return [
    'error',
    {
      patterns: [
        {
          group: NOT_IN_CORE,
          message: 'src/core is pure TypeScript: no UI, storage, worker or model packages.',
        },
        { group: outside, message: 'src/core must not import from the rest of the app.' },
      ],
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'coverage',
      'playwright-report',
      'test-results',
      'public',
      '**/*.min.js',
      '.scratch/**',
      '.bench-cache/**',
      '.stryker-tmp/**',
      'reports/**',
      '.venv/**',
      // AssemblyScript (decorators on functions, wasm types): compiled by `npm run kernels`, not by tsc.
      'kernels/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // verbatimModuleSyntax keeps `import { type A } from 'x'` as `import 'x'`: a door's whole room would load.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': coreImports('../*', '!../core/*'),
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'src/core runs in Node and workers: no DOM.' },
        { name: 'document', message: 'src/core runs in Node and workers: no DOM.' },
        { name: 'indexedDB', message: 'Only src/storage owns IndexedDB.' },
        { name: 'localStorage', message: 'src/core must not touch browser storage.' },
      ],
    },
  },
  {
    // Folders inside src/core (e.g. src/core/eval) reach the core's own modules as '../x': only leaving the core
    // is forbidden there.
    files: ['src/core/*/**/*.ts'],
    rules: { 'no-restricted-imports': coreImports('../../*', '!../../core/*') },
  },
  {
    files: ['src/llm/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'idb', message: 'Only src/storage owns IndexedDB; use its functions.' }],
          patterns: [{ group: ['node:*'], message: 'src/llm runs in browsers and workers.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'src/llm runs in browsers and workers.' },
        { name: 'Buffer', message: 'src/llm runs in browsers and workers.' },
        { name: 'indexedDB', message: 'Only src/storage owns IndexedDB; use its functions.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: ['src/storage/**', 'src/core/**', 'src/llm/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'idb', message: 'Only src/storage owns IndexedDB; use its functions.' }] },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'indexedDB', message: 'Only src/storage owns IndexedDB; use its functions.' },
      ],
    },
  },
  {
    // Workers start in one place, a file each in src/spawn (Vite needs the literal `new Worker(new URL(…))`, and
    // one module imported by the embed and build workers would bundle every worker into each: docs/architecture.md).
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: ['src/spawn/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'NewExpression[callee.name=/^(Shared)?Worker$/]',
          message: 'Start workers in src/spawn, one file each (docs/architecture.md, "Workers").',
        },
      ],
    },
  },
  {
    // A function longer than this is several things: cut it along its seams. The few longer ones say why in an
    // `eslint-disable-next-line max-lines-per-function -- <why>` comment above them.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: 'Import test from ./support/fixtures: it fails the test on any CSP violation.',
            },
          ],
        },
      ],
    },
  },
);
