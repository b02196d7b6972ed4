/**
 * Reading bytes from a user's file. A browser fails to read a file that was moved, deleted or changed after
 * the user chose it (NotReadableError, NotFoundError); that becomes a typed `READ_FAILED`.
 */
import { IngestError, quoted } from './errors';
import type { IngestFile } from '../protocol/ingest';

/** Bytes `start` (inclusive) to `end` (exclusive) of `file`. */
export async function readBytes(file: IngestFile, start: number, end: number): Promise<Uint8Array> {
  try {
    return new Uint8Array(await file.slice(start, end).arrayBuffer());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new IngestError(
      'READ_FAILED',
      `${quoted(file.name)} could not be read (${reason}). It may have been moved or changed since it was chosen; choose it again.`,
      { name: file.name, start, end, reason },
    );
  }
}
