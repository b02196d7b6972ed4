/**
 * Counts that say how the house is laid out, for issue notes and reviews: files and lines per room, imports into a
 * room with a door (an index.ts) made through the door or past it, and the longest functions in src/.
 *
 *   npx tsx scripts/house-counts.ts [checkout]      (default: this checkout; e.g. a worktree of main to compare)
 *
 * A room is a folder of src/ (src/core's and src/models' sub-folders are rooms of their own). Imports are counted
 * from src/ and workers/, type-only ones included (a door is the way in for names, not only for code).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** How many of the longest functions to list. */
const LONGEST = 12;
/** Folders whose sub-folders are rooms of their own. */
const NESTED = new Set(['src/core', 'src/models']);

const root = resolve(process.argv[2] ?? '.');

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(join(root, dir))) return out;
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The room a file of src/ belongs to ('src/models/embed', 'src/llm', 'src/core' for core's root files). */
function roomOf(file: string): string {
  const parts = file.split('/');
  const top = parts.slice(0, 2).join('/');
  if (NESTED.has(top) && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts.length > 2 ? top : 'src';
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(join(root, candidate))) return candidate;
  return undefined;
}

const files = [...sourcesUnder('src'), ...sourcesUnder('workers')];
const srcFiles = files.filter((f) => f.startsWith('src/'));

const rooms = new Map<string, { files: number; lines: number }>();
for (const file of srcFiles) {
  const room = roomOf(file);
  const entry = rooms.get(room) ?? { files: 0, lines: 0 };
  entry.files += 1;
  entry.lines += readFileSync(join(root, file), 'utf8').split('\n').length;
  rooms.set(room, entry);
}

const doors = new Map<string, { door: number; direct: number }>();
const functions: { lines: number; name: string; file: string }[] = [];
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const mine = file.startsWith('src/') ? roomOf(file) : 'workers';
  for (const node of source.statements) {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier) continue;
    const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
    if (!specifier.startsWith('.')) continue;
    const target = resolveImport(file, specifier);
    if (!target?.startsWith('src/')) continue;
    const room = roomOf(target);
    if (room === mine || room === 'src' || !existsSync(join(root, room, 'index.ts'))) continue;
    const entry = doors.get(room) ?? { door: 0, direct: 0 };
    if (target === join(room, 'index.ts')) entry.door += 1;
    else entry.direct += 1;
    doors.set(room, entry);
  }
  if (!file.startsWith('src/')) continue;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ lines: end - start + 1, name: functionName(node), file });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().slice(0, 30)})`;
  return '(anonymous)';
}

console.log(`checkout: ${relative(process.cwd(), root) || '.'}\n\nroom                       files  lines`);
for (const [room, { files: count, lines }] of [...rooms].sort())
  console.log(`${room.padEnd(26)} ${String(count).padStart(5)} ${String(lines).padStart(6)}`);
console.log('\nimports into a room with a door, from outside it: through the door / past it');
let door = 0;
let direct = 0;
for (const [room, entry] of [...doors].sort()) {
  console.log(`${room.padEnd(26)} ${String(entry.door).padStart(5)} ${String(entry.direct).padStart(6)}`);
  door += entry.door;
  direct += entry.direct;
}
console.log(`${'all'.padEnd(26)} ${String(door).padStart(5)} ${String(direct).padStart(6)}`);
console.log(`\nlongest functions in src/ (lines)`);
for (const f of functions.sort((a, b) => b.lines - a.lines).slice(0, LONGEST))
  console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}`);
