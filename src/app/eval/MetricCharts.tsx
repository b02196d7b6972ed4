/**
 * One small bar chart per metric, a bar per mode × search setting in its mode's colour; a compared run's value
 * is the outlined bar beneath. Shares are drawn on a 0–1 scale, other figures against the largest value shown.
 * The numbers are written beside the bars (the table above holds them all too).
 */
import type { ModeReport } from '../../core/eval';
import { modeColorVar } from '../modes';
import { modeOf, type MetricDef } from './metrics';
import { variantLabel } from './ResultsTable';

/** Props of `MetricCharts`. */
export interface MetricChartsProps {
  modes: readonly ModeReport[];
  metrics: readonly MetricDef[];
  compare?: Readonly<Record<string, ModeReport>>;
}

const PERCENT = 100;

/** The charts; see the module comment. */
export function MetricCharts({ modes, metrics, compare }: MetricChartsProps) {
  return (
    <div className="eval-charts">
      {metrics.map((metric) => {
        const values = modes.map((m) => metric.value(m));
        const theirs = modes.map((m) => (compare?.[m.key] ? metric.value(compare[m.key]) : null));
        const top = metric.share
          ? 1
          : Math.max(0, ...values.map((v) => v ?? 0), ...theirs.map((v) => v ?? 0));
        const width = (v: number | null) =>
          v === null || top <= 0 ? 0 : Math.min(PERCENT, (v / top) * PERCENT);
        return (
          <figure key={metric.key} className="eval-chart" aria-label={`${metric.label} per mode`}>
            <figcaption title={metric.description}>
              {metric.label}
              {metric.better !== 'none' && <span className="eval-muted"> ({metric.better} is better)</span>}
            </figcaption>
            <ul>
              {modes.map((entry, i) => (
                <li key={entry.key}>
                  <span className="eval-chart-label">{variantLabel(entry)}</span>
                  <span className="eval-chart-bars" aria-hidden="true">
                    <span
                      className="eval-bar"
                      style={{ width: `${width(values[i])}%`, background: modeColorVar(modeOf(entry)) }}
                    />
                    {compare && (
                      <span
                        className="eval-bar compared"
                        style={{ width: `${width(theirs[i])}%`, borderColor: modeColorVar(modeOf(entry)) }}
                      />
                    )}
                  </span>
                  <span className="eval-chart-value">
                    {values[i] === null ? '–' : metric.format(values[i]!)}
                    {compare && (
                      <span className="eval-muted">
                        {' '}
                        / {theirs[i] === null ? '–' : metric.format(theirs[i]!)}
                      </span>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </figure>
        );
      })}
    </div>
  );
}
