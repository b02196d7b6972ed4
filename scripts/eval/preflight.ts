/**
 * Everything `npm run eval` can check before it builds or evaluates anything: the input and the question set
 * exist, are files and are within the app's own limits (the same constants the app uses), the files it will
 * write can be written (their folder exists and is writable, they are not folders, they are not its inputs),
 * the models folder exists. A book's build takes minutes: a mistake found after it would throw that away.
 * Node's file-system errors become sentences (`fileErrorSentence`), never a bare ENOENT.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MAX_SET_FILE_BYTES, setFileTooLarge } from '../../src/core/eval/questions';
import { MAX_FILE_BYTES } from '../../src/ingest/limits';
import { MAX_IMPORT_BYTES } from '../../src/storage/transfer';
import type { EvalArgs } from './args';
import { EvalInputError, isTreeFile } from './tree-source';

const MB = 1_000_000;
const megabytes = (bytes: number) => `${(bytes / MB).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

/** Node's file-system error codes, as sentences about `path`. */
const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'is not inside a folder that exists (a part of the path is a file)',
  EISDIR: 'is a folder, not a file',
  EACCES: 'cannot be accessed: permission denied',
  EPERM: 'cannot be accessed: the operation is not permitted',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'cannot be written: the disk is full',
  EDQUOT: 'cannot be written: the disk quota is used up',
  EMFILE: 'cannot be opened: too many files are open',
  ENAMETOOLONG: 'has a name too long for the file system',
  ELOOP: 'is a loop of symbolic links',
  EBUSY: 'is busy (in use by another program)',
};

/**
 * A file-system error as a sentence a user can act on: "The question set questions.jsonl does not exist."
 * Anything else than a file-system error comes back as its message.
 */
export function fileErrorSentence(error: unknown, what?: string): string {
  const e = error as { code?: unknown; path?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const reason = code ? FS_REASONS[code] : undefined;
  if (!reason) return error instanceof Error ? error.message : String(error);
  const path = typeof e?.path === 'string' ? e.path : undefined;
  return `${what ? `${what} ` : ''}${path ?? 'A file'} ${reason}.`.replace(/^./, (c) => c.toUpperCase());
}

/** The file at `path` as `what`: it must exist, be a file, be readable and hold at most `limit` bytes. */
async function readableFile(path: string, what: string, limit: number, tooLarge: (bytes: number) => string) {
  let info;
  try {
    info = await stat(path);
    await access(path, constants.R_OK);
  } catch (error) {
    throw new EvalInputError(fileErrorSentence(error, what));
  }
  if (!info.isFile()) throw new EvalInputError(`${what} ${path} is a folder, not a file.`);
  if (info.size > limit) throw new EvalInputError(tooLarge(info.size));
}

/** `path` can be written as `what`: not a folder, not an input, in a folder that exists and is writable. */
async function writableFile(path: string, what: string, inputs: readonly string[]) {
  const target = resolve(path);
  if (inputs.some((input) => resolve(input) === target)) {
    throw new EvalInputError(
      `${what} ${path} is one of the inputs; writing it would destroy it. Name another file.`,
    );
  }
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new EvalInputError(
      `${what} ${path} is a folder; name a file in it, e.g. ${path.replace(/\/?$/, '/report.json')}.`,
    );
  }
  const folder = dirname(target);
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR', path: folder });
    await access(folder, constants.W_OK);
    if (existing) await access(target, constants.W_OK);
  } catch (error) {
    throw new EvalInputError(
      `${what} ${path} cannot be written: ${fileErrorSentence(error).replace(/\.$/, '')}. Nothing was built.`,
    );
  }
}

/**
 * Checks every argument that names a file or folder, before any work.
 * @throws EvalInputError with a sentence naming the argument, the path and what is wrong.
 */
export async function checkEvalArgs(args: EvalArgs, modelsDir: string): Promise<void> {
  const tree = isTreeFile(args.input);
  const inputLimit = tree ? MAX_IMPORT_BYTES : MAX_FILE_BYTES;
  await readableFile(
    args.input,
    tree ? 'The tree' : 'The document',
    inputLimit,
    (bytes) =>
      `${args.input} is ${megabytes(bytes)}; Aerie reads ${tree ? 'tree files' : 'documents'} of up to ` +
      `${megabytes(inputLimit)}.`,
  );
  await readableFile(args.questions, 'The question set', MAX_SET_FILE_BYTES, (bytes) =>
    setFileTooLarge(args.questions, bytes),
  );
  const inputs = [args.input, args.questions];
  if (args.out) await writableFile(args.out, 'The report (--out)', inputs);
  if (args.saveTree) await writableFile(args.saveTree, 'The tree to save (--save-tree)', inputs);
  if (args.out && args.saveTree && resolve(args.out) === resolve(args.saveTree)) {
    throw new EvalInputError('--out and --save-tree name the same file; name two files.');
  }
  const models = await stat(modelsDir).catch(() => undefined);
  if (!models?.isDirectory()) {
    throw new EvalInputError(
      `The models folder (--models-dir) ${modelsDir} ${models ? 'is a file' : 'does not exist'}: name the folder ` +
        'that holds the local models (by default the app’s public/models).',
    );
  }
}
