/**
 * How many nodes each retrieval mode took from each layer (the paper's Figure 7, per question): a real
 * table, so screen readers get every number; the bars are decoration drawn from the same numbers.
 */
import { useMemo } from 'react';
import type { TreeNode } from '../../core/types';
import { MODE_LABELS, modeColorVar, type ModeSelections } from '../modes';
import { countByLayer } from './selection';
import './tree.css';
import './histogram.css';

/** Props of `SelectionHistogram`. */
export interface SelectionHistogramProps {
  /** The tree; `nodes[i].id === i`. */
  tree: { readonly nodes: readonly Pick<TreeNode, 'id' | 'layer'>[] };
  /** What each mode selected; modes left out get no column. */
  selections: ModeSelections;
}

/** Percentages are shown to whole numbers. */
const PERCENT = 100;

/** Per layer (top layer first) and per mode: the count of selected nodes and its share of the mode's total. */
export function SelectionHistogram({ tree, selections }: SelectionHistogramProps) {
  const nodes = tree.nodes;
  const layerCount = useMemo(() => nodes.reduce((top, node) => Math.max(top, node.layer + 1), 0), [nodes]);
  const columns = useMemo(
    () => countByLayer(selections, (id) => nodes[id]?.layer, layerCount),
    [selections, nodes, layerCount],
  );

  if (columns.length === 0) {
    return (
      <section className="selection-histogram" aria-label="Selected nodes per layer">
        <p className="selection-histogram-empty">No question yet: nothing is selected.</p>
      </section>
    );
  }

  const layers = Array.from({ length: layerCount }, (_, i) => layerCount - 1 - i);
  return (
    <section className="selection-histogram">
      <table>
        <caption>Selected nodes per layer</caption>
        <thead>
          <tr>
            <th scope="col">Layer</th>
            {columns.map(({ mode }) => (
              <th key={mode} scope="col">
                <span className="mode-swatch" style={{ background: modeColorVar(mode) }} />
                {MODE_LABELS[mode]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {layers.map((layer) => (
            <tr key={layer}>
              <th scope="row">{layer === 0 ? 'Layer 0 (leaves)' : `Layer ${layer}`}</th>
              {columns.map(({ mode, counts, total }) => {
                const share = total === 0 ? 0 : Math.round((counts[layer] / total) * PERCENT);
                return (
                  <td key={mode}>
                    <span className="histogram-value">
                      {counts[layer]} <span className="histogram-share">({share}%)</span>
                    </span>
                    <span className="histogram-track" aria-hidden="true">
                      <span
                        className="histogram-bar"
                        style={{ width: `${share}%`, background: modeColorVar(mode) }}
                      />
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All layers</th>
            {columns.map(({ mode, total }) => (
              <td key={mode}>{total}</td>
            ))}
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
