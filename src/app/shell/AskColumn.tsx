/** The right column: the Ask panel and, under it, the inspector of the node open in it. */
import type { RaptorTree } from '../../core/types';
import { AskPanel } from '../ask/AskPanel';
import { PanelBoundary } from '../PanelBoundary';
import type { useAsk } from '../state/useAsk';
import type { useCitationNavigation } from '../state/useCitationNavigation';
import type { useConversation } from '../state/useConversation';
import type { useLibraryActions } from '../state/useLibraryActions';
import type { useModeSelections } from '../state/useModeSelections';
import type { useQuestions } from '../state/useQuestions';
import type { useTreeOverview } from '../state/useTreeOverview';
import { InspectorColumn } from './InspectorColumn';

/** What the right column shows and drives. */
export interface AskColumnProps {
  tree: RaptorTree | undefined;
  /** Whether the conversation can be stored (the database is open). */
  stored: boolean;
  /** Why no question can be asked now. */
  blocker: string | undefined;
  hasAnswerModel: boolean;
  ask: ReturnType<typeof useAsk>;
  conversation: ReturnType<typeof useConversation>;
  questions: ReturnType<typeof useQuestions>;
  nav: ReturnType<typeof useCitationNavigation>;
  overview: ReturnType<typeof useTreeOverview>;
  modes: ReturnType<typeof useModeSelections>;
  report: ReturnType<typeof useLibraryActions>['report'];
}

/** The right column. */
export function AskColumn(props: AskColumnProps) {
  const { tree, ask, questions, nav, overview } = props;
  const { inspected, openNode } = nav;
  return (
    <aside className="right-column" aria-label="Ask panel">
      <PanelBoundary name="Ask panel" resetKey={tree} keepWhenWorking>
        <AskPanel
          disabledReason={props.blocker}
          settings={questions.retrieval}
          maxLayer={overview.maxLayer}
          onSettingsChange={questions.setRetrieval}
          busy={ask.busy || props.conversation.pending?.status === 'rewriting'}
          onAsk={questions.onAsk}
          onCompare={questions.onCompare}
          onStop={ask.stop}
          results={ask.results}
          onOpenNode={openNode}
          onOpenCitation={nav.openCitation}
          sourceOf={overview.sourceOf}
          hasAnswerModel={props.hasAnswerModel}
          activeNodeId={inspected}
          conversation={tree && props.stored ? questions.conversationProps : undefined}
        />
      </PanelBoundary>
      {tree && inspected !== undefined && tree.nodes[inspected] && (
        <InspectorColumn
          tree={tree}
          nodeId={inspected}
          primaryParent={overview.primaryParent}
          documentText={overview.documentText}
          selections={props.modes.selections}
          onOpenNode={openNode}
          onShowInDocument={nav.showInDocument}
          onClose={() => nav.setInspected(undefined)}
          onFindSimilar={() =>
            void ask
              .similarTo(inspected, questions.retrieval)
              .catch((e: unknown) => props.report('Retrieval failed', e))
          }
        />
      )}
    </aside>
  );
}
