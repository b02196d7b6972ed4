/**
 * Per question: a list of the run's questions with how each mode did, and for the chosen question what each
 * mode retrieved (rank, node, layer, score, the passage with the evidence marked), whether each quote was
 * found, and the answer with its scores. Node buttons open the node in the inspector. A run made on an earlier
 * build of the tree shows ids and figures only (the nodes it retrieved are gone).
 */
import { useId, useMemo, useState } from 'react';
import { evidenceSpans, optionLetter, type ModeReport, type QuestionReport } from '../../core/eval';
import type { RaptorTree } from '../../core/types';
import type { EvalRunRecord } from '../../storage';
import { MarkedText } from './MarkedText';
import { variantLabel } from './ResultsTable';

/** Questions listed at once; more behind "Show more". */
const PAGE = 50;

/** Props of `QuestionDrill`. */
export interface QuestionDrillProps {
  run: EvalRunRecord;
  tree: RaptorTree;
  /** The run's nodes are this tree's (the tree was not rebuilt since). */
  sameTree: boolean;
  onOpenNode(id: number): void;
}

/** "1/2", "hit", "miss" or "–": how one mode did on one question. */
export function outcomeText(q: QuestionReport, key: string): string {
  const r = q.modes[key];
  if (!r || r.recall === null) return '–';
  if (r.found) return `${r.found.filter(Boolean).length}/${r.found.length}`;
  return r.recall > 0 ? 'hit' : 'miss';
}

function outcomeClass(q: QuestionReport, key: string): string {
  const r = q.modes[key];
  if (!r || r.recall === null) return 'none';
  return r.recall >= 1 ? 'full' : r.recall > 0 ? 'part' : 'miss';
}

/** The drill-down; see the module comment. */
export function QuestionDrill({ run, tree, sameTree, onOpenNode }: QuestionDrillProps) {
  const id = useId();
  const report = run.report!;
  const modes = Object.values(report.modes);
  const firstSearch = modes[0]?.search;
  const listed = modes.filter((m) => m.search === firstSearch);
  const [shown, setShown] = useState(PAGE);
  const [chosen, setChosen] = useState(0);
  const [key, setKey] = useState(modes[0]?.key);
  const question = report.perQuestion[chosen];
  const source = run.questions[chosen];

  return (
    <section className="eval-drill" aria-labelledby={`${id}-h`}>
      <h4 id={`${id}-h`}>Questions</h4>
      <div className="eval-table-scroll eval-question-scroll">
        <table className="eval-table eval-questions">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Question</th>
              <th scope="col">Kind</th>
              {listed.map((m) => (
                <th key={m.key} scope="col">
                  {variantLabel(m)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.perQuestion.slice(0, shown).map((q) => (
              <tr key={q.index} className={q.index === chosen ? 'selected' : undefined}>
                <td>{q.index + 1}</td>
                <td>
                  <button
                    type="button"
                    className="eval-question-button"
                    aria-pressed={q.index === chosen}
                    onClick={() => setChosen(q.index)}
                  >
                    {q.question}
                  </button>
                </td>
                <td>{q.kind ?? ''}</td>
                {listed.map((m) => (
                  <td key={m.key} className={`eval-outcome ${outcomeClass(q, m.key)}`}>
                    {outcomeText(q, m.key)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.perQuestion.length > shown && (
        <button type="button" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, report.perQuestion.length - shown)} more of {report.perQuestion.length - shown}
        </button>
      )}
      {question && source && key && (
        <QuestionDetail
          question={question}
          source={source}
          modes={modes}
          modeKey={key}
          onModeKey={setKey}
          tree={tree}
          sameTree={sameTree}
          onOpenNode={onOpenNode}
        />
      )}
    </section>
  );
}

interface QuestionDetailProps {
  question: QuestionReport;
  source: EvalRunRecord['questions'][number];
  modes: readonly ModeReport[];
  modeKey: string;
  onModeKey(key: string): void;
  tree: RaptorTree;
  sameTree: boolean;
  onOpenNode(id: number): void;
}

function QuestionDetail({
  question,
  source,
  modes,
  modeKey,
  onModeKey,
  tree,
  sameTree,
  onOpenNode,
}: QuestionDetailProps) {
  const result = question.modes[modeKey];
  const evidence = useMemo(() => source.evidence ?? [], [source]);
  return (
    <article className="card eval-detail" aria-label={`Question ${question.index + 1} in detail`}>
      <h5>
        {question.index + 1}. {question.question}
      </h5>
      <dl className="eval-facts">
        {source.answer && (
          <>
            <dt>Reference answer</dt>
            <dd>{source.answer}</dd>
          </>
        )}
        {source.choices && (
          <>
            <dt>Choices</dt>
            <dd>
              {source.choices.map((c, i) => (
                <span key={i} className={i === source.gold ? 'eval-gold' : undefined}>
                  {optionLetter(i)}. {c}
                  {i === source.gold ? ' (gold)' : ''}{' '}
                </span>
              ))}
            </dd>
          </>
        )}
        {question.scoring === 'gold-node' && question.goldNode !== undefined && (
          <>
            <dt>Written from</dt>
            <dd>
              {sameTree ? (
                <button type="button" className="eval-link" onClick={() => onOpenNode(question.goldNode!)}>
                  node {question.goldNode} (layer {tree.nodes[question.goldNode]?.layer})
                </button>
              ) : (
                `node ${question.goldNode}`
              )}{' '}
              — retrieving it, a parent or a child is a hit
            </dd>
          </>
        )}
        {question.scoring === 'none' && (
          <>
            <dt>Scoring</dt>
            <dd>No evidence and no gold node: retrieved, not scored.</dd>
          </>
        )}
      </dl>
      <div className="eval-mode-picker" role="group" aria-label="Mode">
        {modes.map((m) => (
          <button key={m.key} type="button" aria-pressed={m.key === modeKey} onClick={() => onModeKey(m.key)}>
            {variantLabel(m)} <span className="eval-muted">{outcomeText(question, m.key)}</span>
          </button>
        ))}
      </div>
      {evidence.length > 0 && result?.found && (
        <ul className="eval-quotes" aria-label="Evidence quotes">
          {evidence.map((quote, i) => (
            <li key={i} className={result.found![i] ? 'found' : 'missed'}>
              <span className="eval-quote-mark">{result.found![i] ? 'Found' : 'Not found'}</span> “{quote}”
            </li>
          ))}
        </ul>
      )}
      {result?.answer && (
        <div className="eval-answer">
          <p className="eval-prompt-title">Answer</p>
          <p>{result.answer.text}</p>
          <p className="eval-muted">
            {result.answer.correct !== undefined &&
              `${result.answer.correct ? 'Right' : 'Wrong'} (picked ${result.answer.picked === null || result.answer.picked === undefined ? 'no option' : optionLetter(result.answer.picked)}). `}
            {result.answer.f1 !== undefined &&
              `Token F1 ${result.answer.f1.toFixed(2)}, ROUGE-L ${result.answer.rougeL!.toFixed(2)}. `}
            {result.answer.judge !== undefined &&
              `Judge: ${result.answer.judge === null ? 'unreadable verdict' : result.answer.judge ? 'correct' : 'incorrect'}.`}
          </p>
          {result.answer.judgeReply && <p className="eval-muted">“{result.answer.judgeReply}”</p>}
        </div>
      )}
      {result && (
        <ol className="eval-passages" aria-label="Retrieved passages">
          {result.nodes.map((nodeId, rank) => {
            const node = sameTree ? tree.nodes[nodeId] : undefined;
            return (
              <li
                key={`${nodeId}-${rank}`}
                className={rank + 1 === result.firstHit ? 'first-hit' : undefined}
              >
                <div className="eval-passage-head">
                  <span>#{rank + 1}</span>
                  {node ? (
                    <button type="button" className="eval-link" onClick={() => onOpenNode(nodeId)}>
                      Node {nodeId}
                    </button>
                  ) : (
                    <span>Node {nodeId}</span>
                  )}
                  {node && <span>{node.layer === 0 ? 'leaf' : `layer ${node.layer}`}</span>}
                  <span>score {result.scores[rank].toFixed(3)}</span>
                  {rank + 1 === result.firstHit && <span className="eval-hit-badge">first hit</span>}
                </div>
                {node && (
                  <p className="eval-passage-text">
                    <MarkedText text={node.text} spans={evidenceSpans(node.text, evidence)} />
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {!sameTree && (
        <p className="eval-muted">
          This run was made on an earlier build of the tree: its passages are gone.
        </p>
      )}
    </article>
  );
}
