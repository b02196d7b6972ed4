/**
 * The tree view's toolbar: the legend, Find (with its match count), "Next selected" and the zoom buttons
 * (+ − Fit, which the outline's keys also do).
 */
import type { RefObject } from 'react';
import type { ModeSelections } from '../modes';
import { ZOOM_STEP } from './icicle';
import type { IcicleHandle } from './IcicleCanvas';
import { TreeLegend } from './TreeParts';
import type { NextSelected } from './useNextSelected';
import type { TreeFind } from './useTreeFind';

/** Props of `TreeToolbar`. */
export interface TreeToolbarProps {
  selections: ModeSelections;
  nodeCount: number;
  layerCount: number;
  find: Pick<TreeFind, 'query' | 'setQuery' | 'onFindKey' | 'matchText'>;
  walk: NextSelected;
  icicle: RefObject<IcicleHandle | null>;
}

/** The toolbar; see the module comment. */
export function TreeToolbar({ selections, nodeCount, layerCount, find, walk, icicle }: TreeToolbarProps) {
  const { picks, pickAt } = walk;
  return (
    <div className="tree-toolbar">
      <TreeLegend selections={selections} nodeCount={nodeCount} layerCount={layerCount} />
      <div className="tree-tools">
        <div className="tree-find" role="search">
          <input
            type="search"
            aria-label="Find in the tree"
            placeholder="Find labels and text"
            value={find.query}
            onChange={(e) => find.setQuery(e.target.value)}
            onKeyDown={find.onFindKey}
          />
          <span className="tree-find-count" aria-live="polite">
            {find.matchText}
          </span>
        </div>
        <button type="button" disabled={picks.length === 0} onClick={walk.nextSelected}>
          Next selected{picks.length > 0 && pickAt >= 0 ? ` (${pickAt + 1}/${picks.length})` : ''}
        </button>
        <div className="tree-zoom-buttons">
          <button
            type="button"
            aria-label="Zoom in"
            title="Zoom in (+)"
            onClick={() => icicle.current?.zoomBy(ZOOM_STEP)}
          >
            +
          </button>
          <button
            type="button"
            aria-label="Zoom out"
            title="Zoom out (−)"
            onClick={() => icicle.current?.zoomBy(1 / ZOOM_STEP)}
          >
            −
          </button>
          <button
            type="button"
            aria-label="Fit"
            title="Fit the whole tree (0)"
            onClick={() => icicle.current?.fit()}
          >
            Fit
          </button>
        </div>
      </div>
    </div>
  );
}
