/**
 * Harness page for the tree and document components (`npx vite`, then /dev/components.html). Renders them
 * with a generated tree of ~40 nodes or of ~2,000 nodes (with a ~1 MB document) and the selections of the
 * real `retrieve` for a few questions. URL parameters make a view repeatable for screenshots:
 * tree=small|large, q=0|1|2, modes=collapsed,traversal,leaves (or none), theme=light|dark|system,
 * open=<node id>, strict=0 (no StrictMode double rendering, for timing).
 */
// React Fast Refresh's preamble as a module: the dev page carries no inline script (build/security-plugin.ts).
import '@vitejs/plugin-react/preamble';
import { Profiler, StrictMode, useLayoutEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DocumentView } from '../src/app/document/DocumentView';
import { MODE_LABELS, RETRIEVAL_MODES, type ModeSelections, type RetrievalMode } from '../src/app/modes';
import { NodeInspector } from '../src/app/tree/NodeInspector';
import { SelectionHistogram } from '../src/app/tree/SelectionHistogram';
import { TreeView } from '../src/app/tree/TreeView';
import { hierarchyOf } from '../src/app/tree/hierarchy';
import { leavesUnder } from '../src/app/tree/selection';
import { generateHarnessData, type HarnessData } from './components-data';
import '../src/app/theme.css';
import '../src/app/shared.css';

type TreeKey = 'small' | 'large';
type Theme = 'system' | 'light' | 'dark';

const DATA: Record<TreeKey, HarnessData> = {
  small: generateHarnessData('small', 31, 300, 7, { maxTokens: 600, topK: 2 }),
  large: generateHarnessData('large', 1650, 600, 11),
};

/** React render durations of the tree and document views, read by the Playwright measurement script. */
const renders: { id: string; phase: string; actualMs: number }[] = [];
const recordRender = (id: string, phase: string, actualMs: number) => renders.push({ id, phase, actualMs });
(window as unknown as { harnessRenders: typeof renders }).harnessRenders = renders;

const params = new URLSearchParams(window.location.search);

function initialModes(): Set<RetrievalMode> {
  const raw = params.get('modes');
  if (raw === null) return new Set(RETRIEVAL_MODES);
  return new Set(RETRIEVAL_MODES.filter((m) => raw.split(',').includes(m)));
}

function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function Harness() {
  const [treeKey, setTreeKey] = useState<TreeKey>(params.get('tree') === 'large' ? 'large' : 'small');
  const [question, setQuestion] = useState(Number(params.get('q') ?? 0) || 0);
  const [modes, setModes] = useState(initialModes);
  const [theme, setTheme] = useState<Theme>((params.get('theme') as Theme | null) ?? 'system');
  const openParam = params.get('open');
  // As in the app: the node open in the inspector is the tree's focusNodeId (ringed and kept in view).
  const [openNode, setOpenNode] = useState<number | null>(openParam === null ? null : Number(openParam));
  const focusNodeId = openNode ?? undefined;
  const [scrollToLeafId, setScrollToLeafId] = useState<number | undefined>(undefined);

  const data = DATA[treeKey];
  const selections = useMemo<ModeSelections>(() => {
    const all = data.questions[question].selections;
    return Object.fromEntries(RETRIEVAL_MODES.filter((m) => modes.has(m)).map((m) => [m, all[m]]));
  }, [data, question, modes]);
  const highlights = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(selections).map(([m, list]) => [
          m,
          list.filter((s) => s.layer === 0).map((s) => s.id),
        ]),
      ),
    [selections],
  );
  const underSelected = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(selections).map(([m, list]) => [
          m,
          leavesUnder(
            data.tree.nodes,
            list.map((s) => s.id),
          ),
        ]),
      ),
    [selections, data],
  );
  const leaves = useMemo(
    () => data.tree.nodes.flatMap((n) => (n.source === undefined ? [] : [{ id: n.id, source: n.source }])),
    [data],
  );
  const documentText = useMemo(() => {
    const texts = new Map(data.documents.map((d) => [d.id, d.text]));
    return (id: string) => texts.get(id);
  }, [data]);

  useLayoutEffect(() => applyTheme(theme), [theme]);
  const switchTree = (key: TreeKey) => {
    setTreeKey(key);
    setOpenNode(null);
    setScrollToLeafId(undefined);
  };

  return (
    <div className="harness">
      <header className="harness-bar">
        <h1>Aerie components</h1>
        <label>
          Tree{' '}
          <select value={treeKey} onChange={(e) => switchTree(e.target.value as TreeKey)}>
            <option value="small">Small ({DATA.small.tree.nodes.length} nodes)</option>
            <option value="large">Large ({DATA.large.tree.nodes.length} nodes)</option>
          </select>
        </label>
        <label>
          Question{' '}
          <select value={question} onChange={(e) => setQuestion(Number(e.target.value))}>
            {data.questions.map((q, i) => (
              <option key={q.label} value={i}>
                {q.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Modes</legend>
          {RETRIEVAL_MODES.map((mode) => (
            <label key={mode}>
              <input
                type="checkbox"
                checked={modes.has(mode)}
                onChange={(e) => {
                  const next = new Set(modes);
                  if (e.target.checked) next.add(mode);
                  else next.delete(mode);
                  setModes(next);
                }}
              />{' '}
              {MODE_LABELS[mode]}
            </label>
          ))}
        </fieldset>
        <label>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </header>
      <main className="harness-main">
        <section className="harness-tree" aria-label="Tree">
          <Profiler id="tree" onRender={recordRender}>
            <TreeView
              tree={data.tree}
              selections={selections}
              onOpenNode={setOpenNode}
              focusNodeId={focusNodeId}
              height={400}
            />
          </Profiler>
          <SelectionHistogram tree={data.tree} selections={selections} />
        </section>
        <aside className="harness-side">
          {openNode === null ? (
            <p className="harness-hint">Click a node (or focus the tree and press Enter) to inspect it.</p>
          ) : (
            <NodeInspector
              tree={data.tree}
              nodeId={openNode}
              documentText={documentText}
              selections={selections}
              onOpenNode={setOpenNode}
              onShowInDocument={setScrollToLeafId}
              onClose={() => setOpenNode(null)}
              primaryParentOf={(id) => {
                const p = hierarchyOf(data.tree.nodes).primaryParent[id];
                return p >= 0 ? p : undefined;
              }}
            />
          )}
        </aside>
        <section className="harness-doc" aria-label="Document">
          <Profiler id="document" onRender={recordRender}>
            <DocumentView
              documents={data.documents}
              leaves={leaves}
              highlights={highlights}
              underSelected={underSelected}
              scrollToLeafId={scrollToLeafId}
              onOpenNode={setOpenNode}
            />
          </Profiler>
        </section>
      </main>
    </div>
  );
}

const root = document.getElementById('root');
if (root === null) throw new Error('components.html has no #root element');
createRoot(root).render(
  params.get('strict') === '0' ? (
    <Harness />
  ) : (
    <StrictMode>
      <Harness />
    </StrictMode>
  ),
);
