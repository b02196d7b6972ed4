/**
 * The checks that need no reading, in a module of their own so the page can run them before it starts a
 * worker without pulling in the parsers.
 */
import { IngestError, quoted } from './errors';
import { formatBytes, MAX_FILE_BYTES } from '../protocol/ingest-limits';
import type { IngestFile } from '../protocol/ingest';

/** Refuses a file from its size alone: `EMPTY` for 0 bytes, `TOO_LARGE` above `maxBytes` (default 100 MB). */
export function preflight(file: IngestFile, maxBytes: number = MAX_FILE_BYTES): void {
  if (file.size === 0) {
    const message = `${quoted(file.name)} is empty (0 bytes). Choose a file that contains text.`;
    throw new IngestError('EMPTY', message, { name: file.name, size: 0 });
  }
  if (file.size > maxBytes) {
    throw new IngestError(
      'TOO_LARGE',
      `${quoted(file.name)} is ${formatBytes(file.size)}, more than the ${formatBytes(maxBytes)} Aerie accepts. Split it into smaller files.`,
      { name: file.name, size: file.size, maxBytes },
    );
  }
}
