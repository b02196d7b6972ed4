/**
 * Everything `npm run eval` can check before it builds or evaluates anything: the input and the question set
 * exist, are files and are within the app's own limits (the same constants the app uses), the files it will
 * write can be written (a byte is written there) and are none of its inputs by identity, not by path text
 * (output-files.ts), the models folder exists. A book's build takes minutes: a mistake found after it would throw that away.
 * Node's file-system errors become sentences (`fileErrorSentence`), never a bare ENOENT.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { MAX_SET_FILE_BYTES, setFileTooLarge } from '../../src/core/eval';
import { MAX_FILE_BYTES } from '../../src/protocol/ingest-limits';
import { MAX_IMPORT_BYTES } from '../../src/storage';
import type { EvalArgs } from './args';
import { fileErrorSentence } from './fs-errors';
import { checkNotAnInput, closeOutput, prepareOutput, type InputFile, type OutputFile } from './output-files';
import { EvalInputError, isTreeFile } from './tree-source';

export { fileErrorSentence };

const MB = 1_000_000;
const megabytes = (bytes: number) => `${(bytes / MB).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

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

/** The outputs checked writable, and the inputs they must never be. */
export interface PreparedOutputs {
  inputs: InputFile[];
  out?: OutputFile;
  saveTree?: OutputFile;
}

/**
 * Checks every argument that names a file or folder, before any work; the outputs are checked writable (a byte
 * written) and never an input by identity (output-files.ts).
 * @throws EvalInputError with a sentence naming the argument, the path and what is wrong.
 */
export async function checkEvalArgs(args: EvalArgs, modelsDir: string): Promise<PreparedOutputs> {
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
  const inputs: InputFile[] = [
    { path: args.input, what: tree ? 'the tree' : 'the document' },
    { path: args.questions, what: 'the question set' },
  ];
  const outputs: PreparedOutputs = { inputs };
  try {
    if (args.out !== undefined) outputs.out = await prepareOutput(args.out, 'The report (--out)', inputs);
    if (args.saveTree !== undefined) {
      outputs.saveTree = await prepareOutput(args.saveTree, 'The tree to save (--save-tree)', inputs);
      if (outputs.out && outputs.out.target === outputs.saveTree.target)
        throw new EvalInputError('--out and --save-tree name the same file; name two files.');
      if (outputs.out)
        await checkNotAnInput(outputs.saveTree, [{ path: args.out!, what: 'the report (--out)' }]);
    }
    const models = await stat(modelsDir).catch(() => undefined);
    if (!models?.isDirectory()) {
      throw new EvalInputError(
        `The models folder (--models-dir) ${modelsDir} ${models ? 'is a file' : 'does not exist'}: name the folder ` +
          'that holds the local models (by default the app’s public/models).',
      );
    }
  } catch (error) {
    await closeOutput(outputs.out);
    await closeOutput(outputs.saveTree);
    throw error;
  }
  return outputs;
}
