/**
 * One run's results: what ran on which tree, the figures per mode (table and a chart per metric), the layers
 * retrieved nodes came from, the questions one by one, exports, and a comparison with another run (of this
 * tree, e.g. before a rebuild, or of another tree built with another model or summariser).
 */
import { useId, useMemo, useState } from 'react';
import type { RaptorTree } from '../../core/types';
import { usesLabel } from '../../models/device';
import type { EvalRunRecord } from '../../storage';
import { download, safeFileBase } from '../download';
import { formatDate } from '../format';
import { embeddingModelLabel } from '../library/model-label';
import { runToCsv, runToJson } from './export';
import { KindTable } from './KindTable';
import { LayerChart } from './LayerChart';
import { MetricCharts } from './MetricCharts';
import { metricsOf } from './metrics';
import { QuestionDrill } from './QuestionDrill';
import { ResultsTable } from './ResultsTable';
import { runStatusText } from './RunsList';

/** Props of `RunResults`. */
export interface RunResultsProps {
  run: EvalRunRecord;
  tree: RaptorTree;
  /** Runs it can be compared with: this tree's others, then other trees' (loaded on demand). */
  comparable: readonly EvalRunRecord[];
  onLoadOthers(): void;
  onOpenNode(id: number): void;
}

/** "GloVe, extractive · 726 nodes · 12 Mar 2026". */
export function runLabel(run: EvalRunRecord): string {
  const summarizer = run.tree.summarizer.replace(/^llm:/, '');
  return `${run.setName} — ${run.tree.title}: ${embeddingModelLabel(run.tree.embedding)}, ${summarizer}, ${run.tree.nodes} nodes (${formatDate(run.createdAt)})`;
}

/** The results; see the module comment. */
export function RunResults({ run, tree, comparable, onLoadOthers, onOpenNode }: RunResultsProps) {
  const id = useId();
  const [compareId, setCompareId] = useState<string>();
  const compared = comparable.find((r) => r.id === compareId && r.report);
  const report = run.report;
  const modes = useMemo(() => (report ? Object.values(report.modes) : []), [report]);
  const metrics = useMemo(
    () => metricsOf(compared?.report ? [...modes, ...Object.values(compared.report.modes)] : modes),
    [modes, compared],
  );
  const sameTree =
    run.treeId !== undefined && run.tree.createdAt === tree.createdAt && run.tree.nodes === tree.nodes.length;
  const base = safeFileBase(`${run.tree.title} ${run.setName} evaluation`, 'evaluation');

  return (
    <section className="card eval-card eval-results-card" aria-labelledby={`${id}-h`}>
      <div className="eval-results-head">
        <h3 id={`${id}-h`}>Results</h3>
        <div className="eval-row">
          <button
            type="button"
            disabled={!report}
            onClick={() => download(`${base}.csv`, runToCsv(run), 'text/csv')}
          >
            Export CSV
          </button>
          <button type="button" onClick={() => download(`${base}.json`, runToJson(run))}>
            Export JSON
          </button>
        </div>
      </div>
      <p className="eval-muted">
        {runLabel(run)} · {run.questions.length} questions · {run.options.maxTokens} context tokens, traversal
        top-
        {run.options.traversalTopK}
        {run.answerModel
          ? ` · answers by ${run.answerModel}${run.options.judge ? ', judged' : ''}`
          : ''} · {runStatusText(run)}
      </p>
      {run.questionsEmbeddedOn && run.questionsEmbeddedOn.length > 0 && (
        <p className="eval-muted" role="status" aria-label="Where the questions were embedded">
          Questions embedded on {usesLabel(run.questionsEmbeddedOn, ['question', 'questions'])}.
        </p>
      )}
      {report?.warnings.map((w, i) => (
        <p key={i} className="eval-warning">
          {w}
        </p>
      ))}
      {!report ? (
        <p>
          No results yet
          {run.status === 'running' ? ': the run is under way.' : '. Resume the run to finish it.'}
        </p>
      ) : (
        <>
          <div className="eval-row">
            <label htmlFor={`${id}-cmp`}>Compare with</label>
            <select
              id={`${id}-cmp`}
              value={compareId ?? ''}
              onFocus={onLoadOthers}
              onChange={(e) => setCompareId(e.target.value || undefined)}
            >
              <option value="">no other run</option>
              {comparable
                .filter((r) => r.id !== run.id && r.report)
                .map((r) => (
                  <option key={r.id} value={r.id}>
                    {runLabel(r)}
                  </option>
                ))}
            </select>
          </div>
          {compared && compared.setName !== run.setName && (
            <p className="eval-warning">The compared run asked another question set ({compared.setName}).</p>
          )}
          <ResultsTable
            modes={modes}
            metrics={metrics}
            caption={compared ? 'Per mode: this run, and the compared run with the change' : 'Per mode'}
            {...(compared?.report
              ? { compare: { modes: compared.report.modes, label: runLabel(compared) } }
              : {})}
          />
          <KindTable modes={modes} />
          <MetricCharts
            modes={modes}
            metrics={metrics}
            {...(compared?.report ? { compare: compared.report.modes } : {})}
          />
          <LayerChart modes={modes} />
          <QuestionDrill key={run.id} run={run} tree={tree} sameTree={sameTree} onOpenNode={onOpenNode} />
        </>
      )}
    </section>
  );
}
