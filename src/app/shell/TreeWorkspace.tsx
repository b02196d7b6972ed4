/** The open tree's centre column: the root line, the view tabs and their panels (tree, document, evaluate, stats). */
import { useCallback, type ComponentProps } from 'react';
import type { RaptorTree } from '../../core/types';
import { getOriginal, type AerieDb } from '../../storage';
import { parseOriginalKey } from '../document/original-key';
import type { useCitationNavigation } from '../state/useCitationNavigation';
import { DocumentPanel } from '../document/DocumentPanel';
import { TreeView } from '../tree/TreeView';
import { ReachStrip } from '../tree/ReachStrip';
import { SelectionHistogram } from '../tree/SelectionHistogram';
import { TreeStatsPanel } from '../build/TreeStatsPanel';
import { EvaluateView } from '../eval/EvaluateView';
import type { Evaluation } from '../eval/useEvaluation';
import { PanelBoundary } from '../PanelBoundary';
import type { useTreeOverview } from '../state/useTreeOverview';
import type { useOpenTree } from '../state/useOpenTree';
import type { useModeSelections } from '../state/useModeSelections';
import { VIEW_LABELS, type useViewTabs, type View } from '../state/useViewTabs';

type DocumentProps = ComponentProps<typeof DocumentPanel>;

/** What the centre column shows for the open tree. */
export interface TreeWorkspaceProps {
  tree: RaptorTree;
  overview: ReturnType<typeof useTreeOverview> & {
    stats: NonNullable<ReturnType<typeof useTreeOverview>['stats']>;
  };
  open: ReturnType<typeof useOpenTree>;
  tabs: ReturnType<typeof useViewTabs>;
  modes: ReturnType<typeof useModeSelections>;
  nav: ReturnType<typeof useCitationNavigation>;
  /** Where the documents' originals (kept PDFs) are read from. */
  db: AerieDb | undefined;
  evaluation: Evaluation;
  /** The answering model's name for the Evaluate view, or undefined when none is set. */
  answerModel: string | undefined;
  blocker: string | undefined;
}

/** The open tree's centre column. */
export function TreeWorkspace(props: TreeWorkspaceProps) {
  const { tree, overview, open, tabs, modes, nav, db } = props;
  const { openNode, inspected } = nav;
  const loadOriginal = useCallback<DocumentProps['loadOriginal']>(
    (key: string) => {
      const { documentId, sha256 } = parseOriginalKey(key);
      return db ? getOriginal(db, documentId, sha256) : Promise.resolve(undefined);
    },
    [db],
  );
  const { stats, topics, topicsByLayer, rootSummary, leaves } = overview;
  const { view, setView, onTabKey } = tabs;
  const { selections, highlights, underSelected } = modes;
  return (
    <>
      {rootSummary && (
        <p className="root-line" title={topics.length > 0 ? topics.join(' · ') : rootSummary}>
          <strong>Root layer:</strong> {topics.length > 0 ? topics.join(' · ') : rootSummary}
        </p>
      )}
      <div className="view-tabs" role="tablist" aria-label="View" onKeyDown={onTabKey}>
        {(Object.keys(VIEW_LABELS) as View[]).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`tab-${v}`}
            aria-selected={view === v}
            aria-controls={`panel-${v}`}
            tabIndex={view === v ? 0 : -1}
            onClick={() => setView(v)}
          >
            {VIEW_LABELS[v]}
          </button>
        ))}
      </div>
      <div id="panel-tree" role="tabpanel" aria-labelledby="tab-tree" hidden={view !== 'tree'}>
        <PanelBoundary name="tree view" resetKey={tree}>
          <TreeView tree={tree} selections={selections} onOpenNode={openNode} focusNodeId={inspected} />
          {Object.keys(selections).length > 0 && (
            <>
              <ReachStrip tree={tree} selections={selections} />
              <SelectionHistogram tree={tree} selections={selections} />
            </>
          )}
        </PanelBoundary>
      </div>
      <div id="panel-document" role="tabpanel" aria-labelledby="tab-document" hidden={view !== 'document'}>
        <PanelBoundary name="document view" resetKey={tree}>
          {open.documents.some((d) => d.text) ? (
            <DocumentPanel
              documents={open.documents.filter((d) => d.text)}
              leaves={leaves}
              highlights={highlights}
              underSelected={underSelected}
              scrollToLeafId={nav.scrollLeaf}
              onOpenNode={openNode}
              citation={nav.citation}
              onBack={nav.backToAnswer}
              loadOriginal={loadOriginal}
              visible={view === 'document'}
            />
          ) : (
            <p className="empty">This tree was imported without its documents’ text.</p>
          )}
        </PanelBoundary>
      </div>
      <div id="panel-eval" role="tabpanel" aria-labelledby="tab-eval" hidden={view !== 'eval'}>
        {view === 'eval' && (
          <PanelBoundary name="Evaluate view" resetKey={tree}>
            <EvaluateView
              evaluation={props.evaluation}
              tree={tree}
              answerModel={props.answerModel}
              blocker={props.blocker}
              onOpenNode={openNode}
            />
          </PanelBoundary>
        )}
      </div>
      <div id="panel-stats" role="tabpanel" aria-labelledby="tab-stats" hidden={view !== 'stats'}>
        <PanelBoundary name="statistics" resetKey={tree}>
          <TreeStatsPanel
            stats={stats}
            rootSummary={rootSummary}
            rootTerms={topics}
            layerTopics={topicsByLayer}
            summarizer={tree.summarizer}
            embeddingModel={tree.embedding.model}
            summaryCuts={open.record?.summarizer.cuts}
            devices={open.record?.devices}
          />
        </PanelBoundary>
      </div>
    </>
  );
}
