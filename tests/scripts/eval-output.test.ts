/**
 * `npm run eval` never writes over a file it reads (issue 41, point 2), with real symbolic and hard links in a
 * temporary folder: an output is compared with the inputs by identity (device and inode, links followed), is
 * written beside its target and renamed into place (never truncated in place), is tried before any work (a byte
 * written: `/dev/full` fails at once, not after the build), and an empty path is refused. A device is written
 * in place, never replaced.
 */
import {
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvalArgs, UsageError, type EvalArgs } from '../../scripts/eval/args';
import { runEval } from '../../scripts/eval/run';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const QUESTIONS = join(FIXTURES, 'eval', 'cinderella.jsonl');
const DOCUMENT = join(FIXTURES, 'cinderella.txt');
const dir = mkdtempSync(join(tmpdir(), 'aerie-eval-out-'));
const TREE = join(dir, 'cinderella.raptor.json');

const args = (argv: string[]) => parseEvalArgs(argv) as EvalArgs;
const FAST = ['--modes', 'leaves', '--search', 'meaning', '--quiet'];

/** Runs the command; resolves with what it logged and the error it failed with (undefined when it did not). */
async function run(argv: string[], onLog: (line: string) => void = () => {}) {
  const log: string[] = [];
  const error = await runEval(args(argv), (line) => {
    log.push(line);
    onLog(line);
  }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  return { log, error, built: log.some((l) => l.startsWith('Building')) };
}

/** A fresh folder with a copy of the tree and of the question set. */
function workspace(name: string) {
  const folder = mkdtempSync(join(dir, `${name}-`));
  const tree = join(folder, 'tree.raptor.json');
  const questions = join(folder, 'q.jsonl');
  copyFileSync(TREE, tree);
  copyFileSync(QUESTIONS, questions);
  return {
    folder,
    tree,
    questions,
    treeText: readFileSync(tree, 'utf8'),
    questionText: readFileSync(questions, 'utf8'),
  };
}

beforeAll(async () => {
  // The tree every test evaluates (a build of the short sample, once).
  await runEval(args([DOCUMENT, '--questions', QUESTIONS, '--save-tree', TREE, '--quiet']), () => {});
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run eval never writes over its inputs', () => {
  it('refuses --out that is a symbolic link to the input tree, before any work, and leaves the tree whole', async () => {
    const w = workspace('symlink');
    const report = join(w.folder, 'r.json');
    symlinkSync(w.tree, report);
    const { error, log } = await run([w.tree, '--questions', w.questions, '--out', report, ...FAST]);
    expect(error?.message).toMatch(
      /^The report \(--out\) .*r\.json is the tree .*tree\.raptor\.json \(a link to it, or the same file by another path\); writing it would destroy it\./,
    );
    expect(log.some((l) => l.startsWith('Evaluating'))).toBe(false);
    expect(readFileSync(w.tree, 'utf8')).toBe(w.treeText);
  });

  it('refuses --out that is a hard link to the question set', async () => {
    const w = workspace('hardlink');
    const report = join(w.folder, 'r.json');
    linkSync(w.questions, report);
    const { error } = await run([w.tree, '--questions', w.questions, '--out', report, ...FAST]);
    expect(error?.message).toMatch(/is the question set .*q\.jsonl \(a link to it/);
    expect(readFileSync(w.questions, 'utf8')).toBe(w.questionText);
  });

  it('refuses --save-tree that is a link to the document, before the build', async () => {
    const w = workspace('save-tree');
    const document = join(w.folder, 'doc.txt');
    copyFileSync(DOCUMENT, document);
    const text = readFileSync(document, 'utf8');
    const saved = join(w.folder, 'saved.raptor.json');
    symlinkSync(document, saved);
    const { error, built } = await run([
      document,
      '--questions',
      w.questions,
      '--save-tree',
      saved,
      '--quiet',
    ]);
    expect(error?.message).toMatch(/^The tree to save \(--save-tree\) .*saved\.raptor\.json is the document/);
    expect(built).toBe(false);
    expect(readFileSync(document, 'utf8')).toBe(text);
  });

  it('refuses a link to an input that appears while it works, when it comes to write', async () => {
    const w = workspace('late-link');
    const report = join(w.folder, 'r.json');
    const { error } = await run(
      [w.tree, '--questions', w.questions, '--out', report, '--modes', 'leaves'],
      (line) => {
        // Made after the checks, while the questions are evaluated.
        if (line.startsWith('Evaluating')) symlinkSync(w.questions, report);
      },
    );
    expect(error?.message).toMatch(/is the question set .*; writing it would destroy it/);
    expect(readFileSync(w.questions, 'utf8')).toBe(w.questionText);
  });

  it('refuses an empty --out or --save-tree', () => {
    for (const flag of ['--out', '--save-tree', '--questions']) {
      expect(() => parseEvalArgs([TREE, '--questions', QUESTIONS, flag, ''])).toThrow(UsageError);
      expect(() => parseEvalArgs([TREE, '--questions', QUESTIONS, `${flag}=`])).toThrow(
        `${flag} names no file (an empty path); give a file name.`,
      );
    }
    expect(() => parseEvalArgs(['', '--questions', QUESTIONS])).toThrow('empty path');
  });
});

describe('npm run eval writes its files safely', () => {
  it('fails at once on /dev/full, before the build, with a sentence', async () => {
    const w = workspace('full');
    const { error, built } = await run([
      DOCUMENT,
      '--questions',
      w.questions,
      '--out',
      '/dev/full',
      '--quiet',
    ]);
    expect(error?.message).toBe(
      'The report (--out) /dev/full cannot be written: the disk is full. Nothing was built.',
    );
    expect(built).toBe(false);
  });

  it('writes beside the target and renames: a hard link elsewhere keeps its content, no temporary file is left', async () => {
    const w = workspace('rename');
    const keep = join(w.folder, 'keep.json');
    writeFileSync(keep, '{"kept": true}\n');
    const report = join(w.folder, 'r.json');
    linkSync(keep, report);
    const { error } = await run([w.tree, '--questions', w.questions, '--out', report, ...FAST]);
    expect(error).toBeUndefined();
    expect(readFileSync(keep, 'utf8')).toBe('{"kept": true}\n');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ questions: 8, run: { built: false } });
    expect(statSync(report).ino).not.toBe(statSync(keep).ino);
    expect(readdirSync(w.folder).sort()).toEqual(['keep.json', 'q.jsonl', 'r.json', 'tree.raptor.json']);
  });

  it('follows a symbolic link to its target and writes there; the link stays a link', async () => {
    const w = workspace('follow');
    const reports = join(w.folder, 'reports');
    mkdirSync(reports);
    const target = join(reports, 'latest.json');
    const link = join(w.folder, 'r.json');
    symlinkSync(target, link); // dangling until written
    const { error } = await run([w.tree, '--questions', w.questions, '--out', link, ...FAST]);
    expect(error).toBeUndefined();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ questions: 8 });
    expect(readdirSync(reports)).toEqual(['latest.json']);
  });

  it('writes a device in place and never replaces it', async () => {
    const w = workspace('device');
    const { error } = await run([w.tree, '--questions', w.questions, '--out', '/dev/null', ...FAST]);
    expect(error).toBeUndefined();
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});
