/**
 * What a library row says about its tree under the title: its documents (and the PDFs kept with them), its
 * shape, when it was made, the models it was built with and on what devices, and, for an unfinished build,
 * why and where it stopped.
 */
import type { TreeSummary } from '../../storage';
import { stageLabel, stageUnit } from '../build/progress-reducer';
import { devicesLines } from '../build/devices-text';
import { formatBytes, formatCount, formatDate, formatQuantity } from '../format';
import type { RowStatus } from './row-status';
import { embeddingModelLabel, summarizerLabel } from './model-label';

/** Documents: the name of a single one, else "3 documents". */
function documentsText(tree: TreeSummary): string {
  const docs = tree.documents;
  const text = docs.length === 1 ? docs[0].name : formatQuantity(docs.length, 'document');
  return docs.length > 0 && docs.every((d) => !d.textStored) ? `${text} (text not stored)` : text;
}

/** "PDF kept: 2.1 MB" (the original files kept with the tree), or what could not be kept; '' when none. */
export function originalsText(tree: TreeSummary): string {
  const kept = tree.documents.filter((d) => d.original?.kept);
  const bytes = kept.reduce(
    (sum, d) => sum + (d.original?.kept ? d.original.bytes + d.original.layoutBytes : 0),
    0,
  );
  const missing = tree.documents.filter((d) => d.original && !d.original.kept).length;
  const parts: string[] = [];
  if (kept.length > 0)
    parts.push(`${kept.length === 1 ? 'PDF' : `${kept.length} PDFs`} kept: ${formatBytes(bytes)}`);
  if (missing > 0) parts.push(`${formatQuantity(missing, 'PDF')} not kept (text view only)`);
  return parts.join(' · ');
}

/** "2 layers · nodes per layer 34 / 6 / 1", "412 leaves" before any summary layer, or '' before any node. */
function shapeText(tree: TreeSummary): string {
  const counts = tree.nodesPerLayer;
  if (counts.length === 0) return '';
  if (counts.length === 1) return formatQuantity(counts[0], 'leaf', 'leaves');
  const layers = Math.max(tree.layers, counts.length - 1);
  return `${formatQuantity(layers, 'layer')} · nodes per layer ${counts.map((n) => formatCount(n)).join(' / ')}`;
}

/** "Stopped at Summarizing layer 2 (12 / 40 summaries)" for an unfinished build with a checkpoint. */
function checkpointText(tree: TreeSummary, status: RowStatus): string | undefined {
  const c = tree.checkpoint;
  if (!c || c.stage === 'done' || status === 'ready') return undefined;
  const label = stageLabel(c.stage, c.layer > 0 ? c.layer : undefined);
  const counts =
    c.stage === 'model-load'
      ? `${formatBytes(c.done)} / ${formatBytes(c.total)}`
      : `${formatCount(c.done)} / ${formatCount(c.total)} ${stageUnit(c.stage)}`;
  return `${status === 'building' ? 'Now' : 'Stopped at'}: ${label} (${counts})`;
}

/** The row's details; see the module comment. */
export function LibraryRowDetails({ tree, status }: { tree: TreeSummary; status: RowStatus }) {
  const stoppedAt = checkpointText(tree, status);
  const shape = shapeText(tree);
  return (
    <>
      <p className="library-meta">
        <span>{documentsText(tree)}</span>
        {originalsText(tree) && <span className="library-originals">{originalsText(tree)}</span>}
        {shape && <span>{shape}</span>}
        <span>
          <time dateTime={tree.createdAt}>{formatDate(tree.createdAt)}</time>
        </span>
      </p>
      <p className="library-meta">
        <span>
          Embeddings: {embeddingModelLabel(tree.embeddingModel)}
          {tree.embeddingFallbackFrom &&
            ` (instead of ${embeddingModelLabel(tree.embeddingFallbackFrom)}: the model hub was unreachable)`}
        </span>
        <span>Summaries: {summarizerLabel(tree.summarizer)}</span>
      </p>
      {devicesLines(tree.devices).map((line) => (
        <p key={line} className="library-meta library-devices">
          {line}
        </p>
      ))}
      {status === 'failed' && (
        <p className="library-error">{tree.error?.message ?? 'The build stopped with an error.'}</p>
      )}
      {status === 'interrupted' && (
        <p className="library-note">
          The build stopped when its tab was closed or reloaded. Resume continues where it stopped.
        </p>
      )}
      {stoppedAt && <p className="library-note">{stoppedAt}</p>}
    </>
  );
}
