/**
 * The source documents as text, with every leaf's passage marked (data-leaf-id) and the passages each
 * retrieval mode selected highlighted in its colour: a light tint and one underline bar per mode, in a fixed
 * order, so the marks do not rely on colour alone. Clicking a passage (or Enter on a highlighted one, which
 * is focusable) opens its leaf. Only leaf passages are elements — plain text between them stays text — so
 * a 1 MB document costs a few thousand elements, not one per word.
 */
import { memo, useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { MODE_LABELS, RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import type { CitedRange } from './citation-target';
import { citedRuns, leavesByDocument, segmentDocument, type CitedRun, type DocumentLeaf } from './segments';
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
  /** A citation's ranges: exactly these characters are highlighted (see citation-target.ts). */
  cited?: readonly CitedRange[];
  /** The index in `cited` of the range to show; a new `focusKey` scrolls to it and moves the focus there. */
  citedCurrent?: number;
  focusKey?: number;
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
  cited,
  citedCurrent = 0,
  focusKey,
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

  // A citation opened: its range is scrolled to and focused, so keyboard and screen-reader users land on it.
  useEffect(() => {
    const root = rootRef.current;
    if (root === null || focusKey === undefined) return;
    const el = root.querySelector(`[data-cited="${citedCurrent}"]`);
    if (!(el instanceof HTMLElement)) return;
    el.tabIndex = -1;
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
  }, [focusKey, citedCurrent]);

  const citedByDoc = useMemo(() => {
    const map = new Map<string, { start: number; end: number; index: number }[]>();
    (cited ?? []).forEach((r, index) => {
      const list = map.get(r.doc) ?? [];
      list.push({ start: r.start, end: r.end, index });
      map.set(r.doc, list);
    });
    return map;
  }, [cited]);

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
          cited={citedByDoc.get(doc.id)}
          citedCurrent={citedCurrent}
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
  cited?: readonly { start: number; end: number; index: number }[];
  citedCurrent: number;
}

const DocumentText = memo(function DocumentText({
  doc,
  leaves,
  modesByLeaf,
  underByLeaf,
  focusable,
  cited,
  citedCurrent,
}: DocumentTextProps) {
  // Cut once per document and citation: a new mode highlight then re-renders without copying the text again.
  const pieces = useMemo(
    () =>
      segmentDocument(doc.text.length, leaves ?? []).map((seg) => ({
        leafId: seg.leafId,
        runs: citedRuns(doc.text, seg.start, seg.end, cited ?? []),
      })),
    [doc.text, leaves, cited],
  );
  return (
    <article className="document" aria-label={doc.name}>
      <h3 className="document-name">{doc.name}</h3>
      <div className="document-text">
        {pieces.map(({ leafId, runs }, i) =>
          leafId === null ? (
            <CitedText key={`t${i}`} runs={runs} current={citedCurrent} />
          ) : (
            <LeafPassage
              key={leafId}
              id={leafId}
              runs={runs}
              modes={modesByLeaf.get(leafId) ?? ''}
              under={underByLeaf.get(leafId) ?? ''}
              focusable={focusable}
              current={citedCurrent}
            />
          ),
        )}
      </div>
    </article>
  );
});

/** Text with a citation's characters marked (the current range's marks stand out). */
function CitedText({ runs, current }: { runs: readonly CitedRun[]; current: number }) {
  return runs.map((run, i) =>
    run.cited === null ? (
      run.text
    ) : (
      <mark
        key={i}
        className={run.cited === current ? 'doc-cited is-current' : 'doc-cited'}
        data-cited={run.cited}
      >
        {run.text}
      </mark>
    ),
  );
}

interface LeafPassageProps {
  id: number;
  runs: readonly CitedRun[];
  current: number;
  /** Space-separated modes that selected the leaf, '' for none. */
  modes: string;
  /** Space-separated modes that selected a summary above the leaf, '' for none. */
  under: string;
  focusable: boolean;
}

/** One leaf's passage; highlighted ones are <mark>s that say, to screen readers, which modes chose them. */
const LeafPassage = memo(function LeafPassage({
  id,
  runs,
  current,
  modes,
  under,
  focusable,
}: LeafPassageProps) {
  const text = <CitedText runs={runs} current={current} />;
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
