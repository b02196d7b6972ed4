/**
 * The source documents as text, with every leaf's passage marked (data-leaf-id) and the passages each
 * retrieval mode selected highlighted in its colour: a light tint and one underline bar per mode, in a fixed
 * order, so the marks do not rely on colour alone. Clicking a passage (or Enter on a highlighted one, which
 * is focusable) opens its leaf. Only leaf passages are elements — plain text between them stays text — so
 * a 1 MB document costs a few thousand elements, not one per word.
 */
import { memo, useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { MODE_LABELS, RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { leavesByDocument, segmentDocument, type DocumentLeaf } from './segments';
import './document.css';

/** A document with its full text. */
export interface ViewedDocument {
  id: string;
  name: string;
  text: string;
}

/** Props of `DocumentView`. */
export interface DocumentViewProps {
  documents: readonly ViewedDocument[];
  /** The tree's leaves with their source offsets. */
  leaves: readonly DocumentLeaf[];
  /** Leaf ids each mode selected. */
  highlights: Partial<Record<RetrievalMode, readonly number[]>>;
  /** Leaf ids under the summaries each mode selected: marked lightly (a dotted line in the mode's colour). */
  underSelected?: Partial<Record<RetrievalMode, readonly number[]>>;
  /** When this changes to a leaf's id, that leaf is scrolled into view and briefly emphasised. */
  scrollToLeafId?: number;
  /** Called with a leaf's id when its passage is clicked (or Enter is pressed on a highlighted passage). */
  onOpenNode?(id: number): void;
}

/** How long a leaf scrolled to stays emphasised, in ms (matches the animation in document.css). */
const EMPHASIS_MS = 1800;

/** The document view; see the module comment. */
export function DocumentView({
  documents,
  leaves,
  highlights,
  underSelected,
  scrollToLeafId,
  onOpenNode,
}: DocumentViewProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const byDoc = useMemo(() => leavesByDocument(leaves), [leaves]);
  const modesByLeaf = useMemo(() => {
    const map = new Map<number, string>();
    for (const mode of RETRIEVAL_MODES) {
      for (const id of highlights[mode] ?? []) map.set(id, map.has(id) ? `${map.get(id)} ${mode}` : mode);
    }
    return map;
  }, [highlights]);
  const underByLeaf = useMemo(() => {
    const map = new Map<number, string>();
    for (const mode of RETRIEVAL_MODES) {
      for (const id of underSelected?.[mode] ?? [])
        map.set(id, map.has(id) ? `${map.get(id)} ${mode}` : mode);
    }
    return map;
  }, [underSelected]);

  useEffect(() => {
    const root = rootRef.current;
    if (root === null || scrollToLeafId === undefined) return;
    const el = root.querySelector(`[data-leaf-id="${scrollToLeafId}"]`);
    if (!(el instanceof HTMLElement)) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ block: 'center', behavior: reduceMotion ? 'auto' : 'smooth' });
    // An attribute React does not manage, so a re-render cannot cut the animation short.
    el.setAttribute('data-emphasis', '');
    const timer = window.setTimeout(() => el.removeAttribute('data-emphasis'), EMPHASIS_MS);
    return () => {
      window.clearTimeout(timer);
      el.removeAttribute('data-emphasis');
    };
  }, [scrollToLeafId]);

  const leafAt = (target: EventTarget | null): number | null => {
    if (!(target instanceof Element)) return null;
    const id = Number(target.closest('[data-leaf-id]')?.getAttribute('data-leaf-id'));
    return Number.isInteger(id) ? id : null;
  };
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    // A click that ends a text selection is for copying, not for opening.
    if (onOpenNode === undefined || (window.getSelection()?.toString() ?? '') !== '') return;
    const id = leafAt(e.target);
    if (id !== null) onOpenNode(id);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (onOpenNode === undefined || e.key !== 'Enter') return;
    const id = leafAt(e.target);
    if (id === null) return;
    e.preventDefault();
    onOpenNode(id);
  };

  return (
    <div
      ref={rootRef}
      className={onOpenNode === undefined ? 'document-view' : 'document-view is-interactive'}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {documents.length === 0 && <p className="document-empty">No documents.</p>}
      {documents.map((doc) => (
        <DocumentText
          key={doc.id}
          doc={doc}
          leaves={byDoc.get(doc.id)}
          modesByLeaf={modesByLeaf}
          underByLeaf={underByLeaf}
          focusable={onOpenNode !== undefined}
        />
      ))}
    </div>
  );
}

interface DocumentTextProps {
  doc: ViewedDocument;
  leaves: readonly DocumentLeaf[] | undefined;
  modesByLeaf: ReadonlyMap<number, string>;
  underByLeaf: ReadonlyMap<number, string>;
  focusable: boolean;
}

const DocumentText = memo(function DocumentText({
  doc,
  leaves,
  modesByLeaf,
  underByLeaf,
  focusable,
}: DocumentTextProps) {
  // Cut once per document: a new highlight then re-renders without copying the text again.
  const pieces = useMemo(
    () =>
      segmentDocument(doc.text.length, leaves ?? []).map((seg) => ({
        leafId: seg.leafId,
        text: doc.text.slice(seg.start, seg.end),
      })),
    [doc.text, leaves],
  );
  return (
    <article className="document" aria-label={doc.name}>
      <h3 className="document-name">{doc.name}</h3>
      <div className="document-text">
        {pieces.map(({ leafId, text }) =>
          leafId === null ? (
            text
          ) : (
            <LeafPassage
              key={leafId}
              id={leafId}
              text={text}
              modes={modesByLeaf.get(leafId) ?? ''}
              under={underByLeaf.get(leafId) ?? ''}
              focusable={focusable}
            />
          ),
        )}
      </div>
    </article>
  );
});

interface LeafPassageProps {
  id: number;
  text: string;
  /** Space-separated modes that selected the leaf, '' for none. */
  modes: string;
  /** Space-separated modes that selected a summary above the leaf, '' for none. */
  under: string;
  focusable: boolean;
}

/** One leaf's passage; highlighted ones are <mark>s that say, to screen readers, which modes chose them. */
const LeafPassage = memo(function LeafPassage({ id, text, modes, under, focusable }: LeafPassageProps) {
  if (modes === '' && under !== '') {
    const labels = modeNames(under);
    return (
      <span
        className="doc-leaf is-under"
        data-leaf-id={id}
        data-under={under}
        data-label={`Under a summary selected by ${labels}: `}
        title={`Leaf ${id}, under a summary selected by ${labels}`}
      >
        {text}
      </span>
    );
  }
  if (modes === '') {
    return (
      <span className="doc-leaf" data-leaf-id={id}>
        {text}
      </span>
    );
  }
  const chosen = modes.split(' ');
  const labels = RETRIEVAL_MODES.filter((m) => chosen.includes(m))
    .map((m) => MODE_LABELS[m])
    .join(', ');
  return (
    <mark
      className="doc-leaf is-selected"
      data-leaf-id={id}
      data-modes={modes}
      data-label={`Selected by ${labels}: `}
      title={`Leaf ${id}, selected by ${labels}`}
      tabIndex={focusable ? 0 : undefined}
    >
      {text}
    </mark>
  );
});

/** "Collapsed tree, Tree traversal" for a space-separated list of modes. */
function modeNames(modes: string): string {
  const listed = modes.split(' ');
  return RETRIEVAL_MODES.filter((m) => listed.includes(m))
    .map((m) => MODE_LABELS[m])
    .join(', ');
}
