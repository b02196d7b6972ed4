/**
 * The files `npm run eval` writes (`--out`, `--save-tree`), written so that no file it reads is ever written
 * over, whatever the paths look like (issue 41):
 *
 * - **Identity, not path text.** An output is compared with every input by device and inode after links are
 *   resolved (`stat` follows symbolic links; a hard link shares the inode), so `r.json` that is a symbolic or
 *   hard link to the document is refused, as is `./doc.txt` for `doc.txt`. Checked before any work and again
 *   just before writing (the build takes minutes; a link may appear meanwhile).
 * - **Written beside, then renamed into place.** A regular file is written to a new temporary file in the
 *   target's own folder (after following a symbolic link to its target), flushed to disk, and renamed over the
 *   target: an interrupted or failed write leaves the old file whole, and no file is ever truncated in place (a
 *   hard link elsewhere keeps its content).
 * - **Writable before any work.** The check writes a byte: to a temporary file in the target's folder (then
 *   removed), or to a device such as `/dev/full` or `/dev/stdout` itself — a newline, which JSON readers take for
 *   white space — keeping it open for the final write, so a device that refuses writes fails at once, not
 *   after the build. A device is written in place (it cannot be renamed over; renaming onto it would replace the
 *   device node).
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileErrorReason, fileErrorSentence } from './fs-errors';
import { EvalInputError } from './tree-source';

/** Links followed when resolving an output path before giving up (Linux's own limit). */
const MAX_LINK_DEPTH = 40;
/** The byte the check writes to a device: white space before JSON. */
const PROBE = '\n';

/** A file the command reads, as its message names it. */
export interface InputFile {
  path: string;
  /** "the document", "the question set" */
  what: string;
}

/** An output checked writable: where it goes, and how it is written. */
export interface OutputFile {
  /** The path as given. */
  path: string;
  /** As the message names it: "The report (--out)". */
  what: string;
  /** The path written: `path` with symbolic links followed (an existing or a dangling link's target). */
  target: string;
  /** A device (or pipe) written in place through `handle`; else a regular file written beside and renamed. */
  handle?: FileHandle;
}

/** `path` with every symbolic link of its last part followed (also a dangling one), made absolute. */
export async function resolveTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let depth = 0; depth < MAX_LINK_DEPTH; depth++) {
    const folder = await realpath(dirname(current)).catch(() => dirname(current));
    current = join(folder, basename(current));
    const info = await lstat(current).catch(() => undefined);
    if (!info?.isSymbolicLink()) return current;
    current = resolve(folder, await readlink(current));
  }
  throw Object.assign(new Error('too many links'), { code: 'ELOOP', path });
}

/** Device and inode of `path` (links followed), or undefined when it does not exist. */
async function identity(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info ? `${info.dev}:${info.ino}` : undefined;
}

/** Refuses `output` when it is, by identity, one of `inputs`. */
export async function checkNotAnInput(
  output: Pick<OutputFile, 'path' | 'what' | 'target'>,
  inputs: readonly InputFile[],
): Promise<void> {
  const id = await identity(output.target);
  if (id === undefined) return;
  for (const input of inputs) {
    if ((await identity(input.path)) !== id) continue;
    const how =
      resolve(output.path) === resolve(input.path) ? '' : ' (a link to it, or the same file by another path)';
    throw new EvalInputError(
      `${output.what} ${output.path} is ${input.what} ${input.path}${how}; writing it would destroy it. ` +
        'Name another file. Nothing was built.',
    );
  }
}

/**
 * "The report (--out) /dev/full cannot be written: the disk is full." — or, when the error concerns another path
 * (its folder), "… cannot be written: The folder … does not exist."
 */
function writeError(what: string, path: string, target: string | undefined, error: unknown): string {
  const known = fileErrorReason(error);
  if (known && (known.path === undefined || known.path === target || known.path === path)) {
    const reason = known.reason.startsWith('cannot be ')
      ? known.reason
      : `cannot be written: it ${known.reason}`;
    return `${what} ${path} ${reason}`;
  }
  return `${what} ${path} cannot be written: ${fileErrorSentence(error).replace(/\.$/, '')}`;
}

function cannotWrite(what: string, path: string, target: string | undefined, error: unknown): EvalInputError {
  return new EvalInputError(`${writeError(what, path, target, error)}. Nothing was built.`);
}

/** A new temporary file's path beside `target` (hidden, named after it, never an existing file). */
function temporaryBeside(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Checks that `path` can be written as `what` without destroying an input, before any work: not empty, not a
 * folder, not one of `inputs` by identity, and a byte can be written there now.
 * @throws EvalInputError with a sentence naming the argument and the path.
 */
export async function prepareOutput(
  path: string,
  what: string,
  inputs: readonly InputFile[],
): Promise<OutputFile> {
  if (path.trim() === '') throw new EvalInputError(`${what} names no file: give a file name.`);
  let target: string;
  try {
    target = await resolveTarget(path);
  } catch (error) {
    throw cannotWrite(what, path, undefined, error);
  }
  const output: OutputFile = { path, what, target };
  await checkNotAnInput(output, inputs);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new EvalInputError(
      `${what} ${path} is a folder; name a file in it, e.g. ${path.replace(/\/?$/, '/report.json')}.`,
    );
  }
  try {
    if (existing && !existing.isFile()) {
      // A device or a pipe: written in place, and tried now.
      output.handle = await open(target, 'w');
      await output.handle.write(PROBE);
      return output;
    }
    const folder = await stat(dirname(target));
    if (!folder.isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR', path: dirname(target) });
    const probe = temporaryBeside(target);
    const handle = await open(probe, 'wx');
    try {
      await handle.write(PROBE);
      await handle.sync();
    } finally {
      await handle.close();
      await unlink(probe).catch(() => undefined);
    }
    return output;
  } catch (error) {
    await output.handle?.close().catch(() => undefined);
    throw cannotWrite(what, path, target, error);
  }
}

/**
 * Writes `text` to a prepared output: a device in place; a regular file to a temporary file beside its
 * target, flushed, then renamed over it (the old file stays whole until then). Checks once more that the
 * target is none of `inputs`.
 * @throws EvalInputError with a sentence; the target is then as it was.
 */
export async function writeOutput(
  output: OutputFile,
  text: string,
  inputs: readonly InputFile[],
): Promise<void> {
  await checkNotAnInput(output, inputs);
  const failed = (error: unknown) =>
    new EvalInputError(
      `${writeError(output.what, output.path, output.target, error)}; the file there is as it was.`,
    );
  if (output.handle) {
    try {
      await output.handle.write(text);
    } catch (error) {
      throw failed(error);
    } finally {
      await closeOutput(output);
    }
    return;
  }
  const temporary = temporaryBeside(output.target);
  try {
    const mode = (await stat(output.target).catch(() => undefined))?.mode;
    const handle = await open(temporary, 'wx', mode === undefined ? undefined : mode & 0o777);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, output.target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw failed(error);
  }
}

/** Closes a device kept open by `prepareOutput` (nothing for a regular file). */
export async function closeOutput(output: OutputFile | undefined): Promise<void> {
  const handle = output?.handle;
  if (!handle) return;
  output.handle = undefined;
  await handle.close().catch(() => undefined);
}
