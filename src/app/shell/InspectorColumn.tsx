/** The node inspector under the Ask panel, with its "Find similar" button. */
import type { RaptorTree } from '../../core/types';
import { NodeInspector } from '../tree/NodeInspector';
import { PanelBoundary } from '../PanelBoundary';
import type { ComponentProps } from 'react';

type InspectorProps = ComponentProps<typeof NodeInspector>;

/** What the inspector shows and what its controls do. */
export interface InspectorColumnProps {
  tree: RaptorTree;
  nodeId: number;
  /** Each node's primary parent, or a negative number for none. */
  primaryParent: ArrayLike<number>;
  documentText: InspectorProps['documentText'];
  selections: InspectorProps['selections'];
  onOpenNode: InspectorProps['onOpenNode'];
  onShowInDocument: InspectorProps['onShowInDocument'];
  onClose: InspectorProps['onClose'];
  /** Retrieves the nodes nearest the inspected one. */
  onFindSimilar: () => void;
}

/** The node inspector, in its panel boundary. */
export function InspectorColumn(props: InspectorColumnProps) {
  const { tree, nodeId, primaryParent } = props;
  return (
    <PanelBoundary name="node inspector" resetKey={tree}>
      <div className="inspector-wrap">
        <button type="button" className="find-similar" onClick={props.onFindSimilar}>
          Find similar to node {nodeId}
        </button>
        <NodeInspector
          tree={tree}
          nodeId={nodeId}
          primaryParentOf={(id) => {
            const p = primaryParent[id];
            return p >= 0 ? p : undefined;
          }}
          documentText={props.documentText}
          selections={props.selections}
          onOpenNode={props.onOpenNode}
          onShowInDocument={props.onShowInDocument}
          onClose={props.onClose}
        />
      </div>
    </PanelBoundary>
  );
}
