/**
 * Where each mode's retrieved nodes came from, layer by layer (the paper's Figure 7 and Tables 18–20): a table
 * of shares with a stacked bar per mode, leaves at the left, the top layer at the right.
 */
import type { ModeReport } from '../../core/eval';
import { modeOf } from './metrics';
import { variantLabel } from './ResultsTable';
import { modeColorVar } from '../modes';

/** Props of `LayerChart`. */
export interface LayerChartProps {
  modes: readonly ModeReport[];
}

const PERCENT = 100;
/** Opacity of layer L's segment: leaves solid, higher layers lighter. */
const layerOpacity = (layer: number, layers: number) => 1 - (0.75 * layer) / Math.max(1, layers - 1);

/** The layer chart; see the module comment. */
export function LayerChart({ modes }: LayerChartProps) {
  const layers = Math.max(1, ...modes.map((m) => m.layers.length));
  const percent = (share: number) =>
    share > 0 && Math.round(share * PERCENT) === 0 ? '<1%' : `${Math.round(share * PERCENT)}%`;
  return (
    <div className="eval-table-scroll">
      <table className="eval-table eval-layers">
        <caption>Share of retrieved nodes per layer (the paper’s Figure 7)</caption>
        <thead>
          <tr>
            <th scope="col">Mode</th>
            {Array.from({ length: layers }, (_, l) => (
              <th key={l} scope="col">
                {l === 0 ? 'Leaves' : `Layer ${l}`}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Bar</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {modes.map((entry) => (
            <tr key={entry.key}>
              <th scope="row">{variantLabel(entry)}</th>
              {Array.from({ length: layers }, (_, l) => (
                <td key={l}>{entry.layers[l] ? percent(entry.layers[l]) : '–'}</td>
              ))}
              <td className="eval-layer-cell" aria-hidden="true">
                <span className="eval-layer-bar">
                  {entry.layers.map((share, l) =>
                    share > 0 ? (
                      <span
                        key={l}
                        title={`${l === 0 ? 'Leaves' : `Layer ${l}`}: ${percent(share)}`}
                        style={{
                          width: `${share * PERCENT}%`,
                          background: modeColorVar(modeOf(entry)),
                          opacity: layerOpacity(l, layers),
                        }}
                      />
                    ) : null,
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
