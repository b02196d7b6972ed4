/**
 * Everything about one node in a side panel (a non-modal dialog): its text, layer, tokens, which modes
 * selected it and at what rank, its parents and children (each opens that node), and for a leaf the passage
 * it came from in its document, with some context. Focus moves into the panel when it opens or shows another
 * node, Escape or "Close" closes it, and focus then returns to where it was. All text is rendered as text.
 */
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TreeDocument, TreeNode } from '../../core/types';
import { passageContext } from '../document/passage';
import { MODE_LABELS, modeColorVar, type ModeSelections } from '../modes';
import { nodeKind, SCORE_DECIMALS, truncateText } from './describe';
import { buildParentIndex, parentsOf } from './graph';
import { indexSelections, type NodeMark } from './selection';
import './tree.css';
import './inspector.css';

/** What the inspector reads of a node. */
export type InspectorNode = Pick<TreeNode, 'id' | 'layer' | 'text' | 'tokens' | 'children' | 'source'> &
  Partial<Pick<TreeNode, 'label' | 'title'>>;

/** Props of `NodeInspector`. */
export interface NodeInspectorProps {
  /** The tree; `nodes[i].id === i`. */
  tree: {
    readonly nodes: readonly InspectorNode[];
    readonly documents: readonly Pick<TreeDocument, 'id' | 'name'>[];
  };
  /** The node shown. */
  nodeId: number;
  /** The full text of a document, when loaded, to show a leaf's passage in context. */
  documentText?: (docId: string) => string | undefined;
  /** The current question's selections, to say which modes picked this node. */
  selections?: ModeSelections;
  /** Open another node (a parent or child). */
  onOpenNode(id: number): void;
  /** Show a leaf in the document view; without it the "Show in document" button is absent. */
  onShowInDocument?(leafId: number): void;
  /** Close the panel (Escape or the Close button). */
  onClose(): void;
  /** The parent a node is drawn under in the tree view (its primary parent), when known. */
  primaryParentOf?(id: number): number | undefined;
}

/** Characters of a related node's text previewed in the parent and child lists. */
const RELATED_PREVIEW_CHARS = 90;
/** Related nodes listed before a "Show all" button. */
const RELATED_LIST_LIMIT = 30;

/** The node inspector; see the module comment. */
export function NodeInspector({
  tree,
  nodeId,
  documentText,
  selections,
  onOpenNode,
  onShowInDocument,
  onClose,
  primaryParentOf,
}: NodeInspectorProps) {
  const nodes = tree.nodes;
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const parentIndex = useMemo(() => buildParentIndex(nodes), [nodes]);
  const selection = useMemo(
    () => indexSelections(selections ?? {}, nodes.length),
    [selections, nodes.length],
  );

  // Give focus back to whatever had it when the panel opened.
  useEffect(() => {
    const opener = document.activeElement;
    return () => {
      if (opener instanceof HTMLElement || opener instanceof SVGElement) {
        if (opener.isConnected) opener.focus();
      }
    };
  }, []);
  useEffect(() => headingRef.current?.focus(), [nodeId]);

  const node = nodes[nodeId];
  return (
    <section
      className="tree-inspector"
      role="dialog"
      aria-modal="false"
      aria-labelledby={headingId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <header className="tree-inspector-header">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          {node === undefined ? 'Node not found' : `Node ${node.id}`}
        </h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {node === undefined ? (
        <p>This tree has no node {nodeId}.</p>
      ) : (
        <>
          {node.title !== undefined && <p className="tree-inspector-title">{node.title}</p>}
          {node.label !== undefined && node.label.length > 0 && (
            <p className="tree-inspector-topic">
              <span className="tree-inspector-topic-term">Topic</span> {node.label.join(' · ')}
            </p>
          )}
          <dl className="tree-inspector-facts">
            <Fact term="Kind">{nodeKind(node.layer)}</Fact>
            <Fact term="Tokens">{node.tokens}</Fact>
            {node.layer > 0 && <Fact term="Leaves below">{leavesBelow(nodes, node.id)}</Fact>}
          </dl>
          <h3>Selected by</h3>
          <SelectionList marks={selection.byNode.get(node.id)} />
          <h3>Text</h3>
          <p className="tree-inspector-text">{node.text}</p>
          {node.source !== undefined && (
            <SourcePassage
              node={node}
              documents={tree.documents}
              documentText={documentText}
              onShowInDocument={onShowInDocument}
            />
          )}
          <RelatedList
            key={`parents-${node.id}`}
            title="Parents"
            ids={primaryFirst(Array.from(parentsOf(parentIndex, node.id)), primaryParentOf?.(node.id))}
            nodes={nodes}
            onOpenNode={onOpenNode}
            note={(id) =>
              primaryParentOf === undefined
                ? undefined
                : id === primaryParentOf(node.id)
                  ? 'drawn under it'
                  : 'also a parent (soft clustering)'
            }
          />
          <RelatedList
            key={`children-${node.id}`}
            title="Children"
            ids={node.children.filter((c) => c >= 0 && c < nodes.length)}
            nodes={nodes}
            onOpenNode={onOpenNode}
          />
        </>
      )}
    </section>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function SelectionList({ marks }: { marks: readonly NodeMark[] | undefined }) {
  if (marks === undefined)
    return <p className="tree-inspector-muted">No retrieval mode selected this node.</p>;
  return (
    <ul className="tree-inspector-marks">
      {marks.map((m) => (
        <li key={m.mode}>
          <span className="mode-swatch" style={{ background: modeColorVar(m.mode) }} />
          {MODE_LABELS[m.mode]}: rank {m.rank}, score {m.score.toFixed(SCORE_DECIMALS)}
        </li>
      ))}
    </ul>
  );
}

interface SourcePassageProps {
  node: InspectorNode;
  documents: readonly Pick<TreeDocument, 'id' | 'name'>[];
  documentText: NodeInspectorProps['documentText'];
  onShowInDocument: NodeInspectorProps['onShowInDocument'];
}

function SourcePassage({ node, documents, documentText, onShowInDocument }: SourcePassageProps) {
  const source = node.source;
  if (source === undefined) return null;
  const name = documents.find((d) => d.id === source.doc)?.name ?? source.doc;
  const text = documentText?.(source.doc);
  const context = text === undefined ? null : passageContext(text, source.start, source.end);
  return (
    <>
      <h3>Source</h3>
      <p className="tree-inspector-muted">
        {name}
        {source.page !== undefined && `, page ${source.page}`}, characters {source.start}–{source.end}
      </p>
      {context === null ? (
        <p className="tree-inspector-muted">The document&apos;s text is not loaded.</p>
      ) : (
        <blockquote className="tree-inspector-passage">
          {context.clippedBefore && '…'}
          {context.before}
          <mark>{context.passage}</mark>
          {context.after}
          {context.clippedAfter && '…'}
        </blockquote>
      )}
      {onShowInDocument !== undefined && (
        <button type="button" onClick={() => onShowInDocument(node.id)}>
          Show in document
        </button>
      )}
    </>
  );
}

interface RelatedListProps {
  title: string;
  ids: readonly number[];
  nodes: readonly InspectorNode[];
  onOpenNode(id: number): void;
  /** A few words after a node's kind (e.g. whether the view draws the node under this parent). */
  note?(id: number): string | undefined;
}

/** The primary parent first, the others after it in id order. */
function primaryFirst(ids: number[], primary: number | undefined): number[] {
  return primary === undefined || !ids.includes(primary)
    ? ids
    : [primary, ...ids.filter((id) => id !== primary)];
}

function RelatedList({ title, ids, nodes, onOpenNode, note }: RelatedListProps) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? ids : ids.slice(0, RELATED_LIST_LIMIT);
  return (
    <>
      <h3>
        {title} ({ids.length})
      </h3>
      {ids.length === 0 ? (
        <p className="tree-inspector-muted">None.</p>
      ) : (
        <ul className="tree-inspector-related">
          {shown.map((id) => (
            <li key={id}>
              <button type="button" className="tree-inspector-link" onClick={() => onOpenNode(id)}>
                <span className="tree-inspector-link-id">
                  Node {id} · {nodeKind(nodes[id].layer)}
                  {note?.(id) !== undefined && ` · ${note(id)}`}
                </span>
                {nodes[id].label !== undefined && (nodes[id].label?.length ?? 0) > 0 && (
                  <span className="tree-inspector-link-label">{nodes[id].label!.join(' · ')}</span>
                )}
                <span className="tree-inspector-link-text">
                  {truncateText(nodes[id].text, RELATED_PREVIEW_CHARS)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {shown.length < ids.length && (
        <button type="button" onClick={() => setShowAll(true)}>
          Show all {ids.length}
        </button>
      )}
    </>
  );
}

/** Number of distinct leaves reachable from `id` through children (each counted once despite soft clustering). */
function leavesBelow(nodes: readonly InspectorNode[], id: number): number {
  const seen = new Set<number>([id]);
  const stack = [id];
  let leaves = 0;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const node = nodes[top];
    if (node.layer === 0) leaves++;
    for (const child of node.children) {
      if (child >= 0 && child < nodes.length && !seen.has(child) && nodes[child].layer < node.layer) {
        seen.add(child);
        stack.push(child);
      }
    }
  }
  return leaves;
}
