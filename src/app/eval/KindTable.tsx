/**
 * Evidence recall per kind of question: one column per `kind` the question set has ("fact", "arc", "theme", or
 * whatever the user's set calls its kinds), one row per mode and search, and the question count of each kind in
 * its heading. The split `npm run bench retrieval` prints for the gold sets, for the user's own questions.
 * Questions without a kind are counted under "no kind" when the set has other kinds too; only scored questions
 * (with evidence or a gold node) count.
 */
import type { ModeReport } from '../../core/eval';
import { modeColorVar } from '../modes';
import { modeOf } from './metrics';
import { variantLabel } from './ResultsTable';

/** The column of questions that carry no kind (the report files them under ''). */
const NO_KIND = '';

/** The kinds of a run, in the order their first mode lists them; '' (no kind) last. */
export function kindsOf(modes: readonly ModeReport[]): string[] {
  const kinds = new Set<string>();
  for (const mode of modes) for (const kind of Object.keys(mode.byKind)) kinds.add(kind);
  return [...kinds].sort((a, b) => Number(a === NO_KIND) - Number(b === NO_KIND) || a.localeCompare(b));
}

/** Props of `KindTable`. */
export interface KindTableProps {
  modes: readonly ModeReport[];
}

/**
 * The table, or nothing when the set's scored questions have no kinds (one column would repeat the results
 * table). A kind none of whose questions could be scored (no evidence, no gold node) gets no column.
 */
export function KindTable({ modes }: KindTableProps) {
  const count = (kind: string) => Math.max(0, ...modes.map((m) => m.byKind[kind]?.questions ?? 0));
  const kinds = kindsOf(modes).filter((kind) => count(kind) > 0);
  if (kinds.filter((k) => k !== NO_KIND).length === 0) return null;
  return (
    <div className="eval-table-scroll">
      <table className="eval-table eval-kinds">
        <caption>Evidence recall by kind of question</caption>
        <thead>
          <tr>
            <th scope="col">Mode</th>
            {kinds.map((kind) => (
              <th key={kind} scope="col">
                {kind === NO_KIND ? 'no kind' : kind} <span className="eval-muted">({count(kind)})</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {modes.map((entry) => (
            <tr key={entry.key}>
              <th scope="row">
                <span className="mode-swatch" style={{ background: modeColorVar(modeOf(entry)) }} />
                {variantLabel(entry)}
              </th>
              {kinds.map((kind) => {
                const recall = entry.byKind[kind]?.evidenceRecall;
                return (
                  <td key={kind}>{recall === null || recall === undefined ? '–' : recall.toFixed(2)}</td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
