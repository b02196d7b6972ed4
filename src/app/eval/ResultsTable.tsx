/**
 * A run's figures per mode (rows: every mode × search setting; columns: the metrics it has), and, when another
 * run is compared, that run's value and the change under each cell, coloured by which way is better.
 */
import { PLAIN_BM25, type ModeReport } from '../../core/eval';
import { MODE_LABELS, modeColorVar } from '../modes';
import { modeOf, type MetricDef } from './metrics';

/** Props of `ResultsTable`. */
export interface ResultsTableProps {
  modes: readonly ModeReport[];
  metrics: readonly MetricDef[];
  /** The compared run's entries by key, and its name. */
  compare?: { modes: Readonly<Record<string, ModeReport>>; label: string };
  caption: string;
}

/** "+0.12" / "−0.05": a change written with its sign. */
function signed(value: number, metric: MetricDef): string {
  const text = metric.format(Math.abs(value));
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : '±0';
}

/** Whether a change is good, bad or neither for `metric`. */
export function changeKind(delta: number, metric: MetricDef): 'better' | 'worse' | 'same' {
  if (delta === 0 || metric.better === 'none') return 'same';
  return delta > 0 === (metric.better === 'higher') ? 'better' : 'worse';
}

/** Short names of the modes, for rows and bars that also name the search setting. */
const SHORT_MODE: Record<string, string> = {
  collapsed: 'Collapsed',
  traversal: 'Traversal',
  leaves: 'Leaves',
};

/**
 * The name of a row: the mode ("Collapsed tree") for the default search, the short mode and what differs
 * otherwise ("Collapsed · keywords", "Leaves · both+rerank"); the plain-BM25 reference by its name.
 */
export function variantLabel(entry: Pick<ModeReport, 'key' | 'mode' | 'search' | 'rerank'>): string {
  if (entry.rerank === PLAIN_BM25) return 'Plain BM25 (leaves, no tree)';
  if (entry.key === entry.mode) return MODE_LABELS[modeOf(entry)];
  return `${SHORT_MODE[entry.mode] ?? entry.mode} · ${entry.key.slice(entry.mode.length + 1)}`;
}

/** The results table; see the module comment. */
export function ResultsTable({ modes, metrics, compare, caption }: ResultsTableProps) {
  return (
    <div className="eval-table-scroll">
      <table className="eval-table eval-results">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Mode</th>
            <th scope="col" title="Questions scored (with evidence or a gold node)">
              Scored
            </th>
            {metrics.map((m) => (
              <th key={m.key} scope="col" title={`${m.label}: ${m.description}`}>
                {m.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {modes.map((entry) => {
            const other = compare?.modes[entry.key];
            return (
              <tr key={entry.key}>
                <th scope="row">
                  <span className="mode-swatch" style={{ background: modeColorVar(modeOf(entry)) }} />
                  {variantLabel(entry)}
                </th>
                <td>{entry.questions}</td>
                {metrics.map((metric) => {
                  const value = metric.value(entry);
                  const theirs = other ? metric.value(other) : null;
                  return (
                    <td key={metric.key}>
                      {value === null ? '–' : metric.format(value)}
                      {compare && (
                        <span className="eval-compare-cell">
                          {theirs === null ? (
                            'no value'
                          ) : (
                            <>
                              was {metric.format(theirs)}
                              {value !== null && (
                                <span className={`eval-delta ${changeKind(value - theirs, metric)}`}>
                                  {' '}
                                  {signed(value - theirs, metric)}
                                </span>
                              )}
                            </>
                          )}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
