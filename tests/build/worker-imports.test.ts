/**
 * What each worker's script loads at run time, read from the sources' import statements (`import type` and
 * `export type` are erased by the bundler and do not count; `import { type A } from 'x'` does count: under
 * verbatimModuleSyntax it stays as `import 'x'`). The embedding workers start when a page opens a tree or a
 * build begins, so their script is on the path to the first question and the first embedded leaf: the cl100k
 * tables (gpt-tokenizer, about a megabyte of script, which Chromium must compile before the worker answers)
 * must stay out of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The module specifiers a source file loads at run time (imports and re-exports but `import type`/`export type`). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** A stylesheet, JSON data or a URL import (`?url`, `?worker`): the bundler emits a file, the script loads no code of it. */
function isAsset(specifier: string): boolean {
  return specifier.includes('?') || /\.(css|json)$/.test(specifier);
}

function resolveLocal(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  throw new Error(`Cannot resolve ${specifier} from ${from}`);
}

/** Every package a worker's script loads, directly or through the project's own modules. */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (isAsset(specifier)) continue;
      if (specifier.startsWith('.')) queue.push(resolveLocal(file, specifier));
      else packages.add(specifier);
    }
  }
  return packages;
}

describe('worker scripts', () => {
  it('the import reader follows re-exports and skips type-only imports', () => {
    // chunk.ts counts cl100k tokens; its type-only users must not pull it in, its real users must.
    expect(packagesLoadedBy('src/core/text/chunk.ts')).toContain('gpt-tokenizer/encoding/cl100k_base');
    expect(packagesLoadedBy('workers/build.worker.ts')).toContain('gpt-tokenizer/encoding/cl100k_base');
    expect(runtimeImports(join(ROOT, 'src/models/device/webgpu.ts'))).toEqual([]);
  });

  it.each(['workers/embed.worker.ts', 'workers/embed-helper.worker.ts'])(
    '%s loads the embedding runtime but not the cl100k tables',
    (entry) => {
      const packages = packagesLoadedBy(entry);
      expect(packages).toContain('@huggingface/transformers');
      expect([...packages].filter((p) => p.startsWith('gpt-tokenizer'))).toEqual([]);
    },
  );

  it('the generate worker loads wllama only for a GGUF model (by a dynamic import), not at start', () => {
    const packages = packagesLoadedBy('workers/generate.worker.ts');
    expect(packages).toContain('@huggingface/transformers');
    expect(packages).not.toContain('@wllama/wllama');
  });

  it('the page loads no model runtime: it reaches the model rooms by their light files, not their doors', () => {
    const packages = packagesLoadedBy('src/main.tsx');
    expect(packages).toContain('react');
    expect(packages).not.toContain('@huggingface/transformers');
    expect(packages).not.toContain('@wllama/wllama');
  });

  it('the import worker (a tree file) loads only comlink and idb, though it enters storage by its door', () => {
    expect([...packagesLoadedBy('workers/import.worker.ts')].sort()).toEqual(['comlink', 'idb']);
  });

  it('the labels worker (opening an old tree) loads only the stemmer and comlink: it answers at once', () => {
    expect([...packagesLoadedBy('workers/labels.worker.ts')].sort()).toEqual(['comlink', 'stemmer']);
  });
});
