/**
 * What a build tells the user beside its progress: a fallback the worker took (the extractive summarizer, another
 * device, the offline embedding model) and the PDFs that could not be kept with the tree.
 */
import type { IngestedDocument } from '../../ingest';
import type { PipelineProgress } from '../../protocol/build';
import { keepOriginals, MAX_KEPT_ORIGINAL_BYTES, type AerieDb, type NewOriginal } from '../../storage';
import { deviceFallbackNotice } from '../build/devices-text';
import { noPagesReason } from '../document/citation-text';
import { isTreeGone } from './build-run';
import type { NoticeInput } from './useNotices';

/**
 * The warning for a fallback event of the build of `treeId`, or undefined for any other event; `rebuild` builds
 * the tree again with the model it could not download.
 */
export function fallbackNotice(
  event: PipelineProgress['event'],
  treeId: string,
  rebuild: (treeId: string, model: string) => void,
): NoticeInput | undefined {
  if (event.stage === 'summarizer-fallback') {
    return {
      kind: 'warning',
      key: 'summarizer-fallback',
      title: 'Summaries by the extractive summarizer',
      body:
        `${event.reason} This tree’s summaries are extractive; the library row says so. Build again once ` +
        'the model can be downloaded to have it write them.',
    };
  }
  if (event.stage === 'device-fallback') {
    return {
      kind: 'warning',
      key: `device-fallback-${event.model}`,
      ...deviceFallbackNotice(event.model, event.to, event.fallback.message),
    };
  }
  if (event.stage === 'model-fallback') {
    return {
      kind: 'warning',
      key: 'model-fallback',
      title: 'Using the built-in offline model',
      body:
        `The model hub could not be reached to download ${event.from}, so this tree is built with the ` +
        'offline GloVe model (weaker, but it works without a network). The library row says so. Check the ' +
        'connection and build again to use the SBERT model.',
      actions: [{ label: `Rebuild with ${event.from}`, onClick: () => rebuild(treeId, event.from) }],
    };
  }
  return undefined;
}

/**
 * Keeps the PDFs of a recorded build with it, and says which could not be kept and why (the build goes on:
 * their citations open in the text view).
 */
export async function keepOriginalsOrSay(
  db: AerieDb,
  treeId: string,
  originals: readonly (NewOriginal | undefined)[],
  notify: (n: NoticeInput) => void,
): Promise<void> {
  if (!originals.some(Boolean)) return;
  let infos: Awaited<ReturnType<typeof keepOriginals>>;
  try {
    infos = await keepOriginals(db, treeId, originals);
  } catch (error) {
    if (isTreeGone(error, treeId)) throw error;
    infos = originals.map((o) =>
      o ? { kept: false, reason: 'unavailable', bytes: o.size ?? 0 } : undefined,
    );
  }
  infos.forEach((info, i) => {
    if (!info || info.kept) return;
    const name = originals[i]?.name ?? 'A PDF';
    notify({
      kind: 'warning',
      key: `original-${treeId}-${i}`,
      title: `“${name}” is not kept with the tree`,
      body: noPagesReason(name, info, MAX_KEPT_ORIGINAL_BYTES) ?? '',
    });
  });
}

/** The MIME type of an ingested document's type. */
export function mimeOf(type: IngestedDocument['type']): string {
  switch (type) {
    case 'pdf':
      return 'application/pdf';
    case 'docx':
      return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    case 'html':
      return 'text/html';
    case 'md':
      return 'text/markdown';
    default:
      return 'text/plain';
  }
}
