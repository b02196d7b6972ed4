/**
 * Harness page for the Settings dialog, build progress, tree statistics and library panels (`npx vite`,
 * then /dev/panels.html). Progress states are made by feeding synthetic worker reports through the real
 * reducer; the statistics are those of the official RAPTOR Cinderella tree (tests/fixtures) and of an
 * illustrative extractive tree. URL parameters make a view repeatable for screenshots:
 * theme=light|dark|system, settings=open, library=empty.
 */
// React Fast Refresh's preamble as a module: the dev page carries no inline script (build/security-plugin.ts).
import '@vitejs/plugin-react/preamble';
import { StrictMode, useLayoutEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ProgressView } from '../src/app/build/ProgressView';
import { initialProgress, markStopped, reduceProgress } from '../src/app/build/progress-reducer';
import { TreeStatsPanel } from '../src/app/build/TreeStatsPanel';
import { LibraryPanel } from '../src/app/library/LibraryPanel';
import { DEFAULT_SETTINGS, type AppSettings } from '../src/app/settings/app-settings';
import { SettingsDialog } from '../src/app/settings/SettingsDialog';
import type { ConnectionResult } from '../src/app/settings/SettingsDialog';
import type { BuildProgressState } from '../src/app/state/types';
import { treeStats, type TreeStats } from '../src/core/stats';
import type { RaptorTree } from '../src/core/types';
import type { UsageTotals } from '../src/llm';
import type { PipelineProgress } from '../src/protocol/build';
import type { TreeSummary } from '../src/storage';
import '../src/app/theme.css';
import '../src/app/shared.css';
import cinderella from '../tests/fixtures/official-cinderella-tree.json';

type Theme = 'system' | 'light' | 'dark';

const params = new URLSearchParams(window.location.search);
/** Progress timestamps end this long before the page loaded, so elapsed times look like a real build. */
const NOW = Date.now();
const SECOND = 1000;

function usage(prompt: number, completion: number, requests: number): UsageTotals {
  return {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: prompt + completion,
    requests,
    unreported: 0,
  };
}

/** Feeds reports (times in seconds since the build started) through the real reducer. */
function replay(
  title: string,
  startedSecondsAgo: number,
  events: [number, PipelineProgress['event'], UsageTotals?][],
) {
  const start = NOW - startedSecondsAgo * SECOND;
  let state = initialProgress(`tree-${title}`, title, start);
  let last = usage(0, 0, 0);
  for (const [seconds, event, u] of events) {
    last = u ?? last;
    state = reduceProgress(state, { event, usage: last, at: start + seconds * SECOND });
  }
  return state;
}

const MODEL_FILE = 'onnx/model_quantized.onnx';

/** Reports up to the end of the leaf embeddings of a 412-chunk book. */
const LEAVES: [number, PipelineProgress['event'], UsageTotals?][] = [
  [0, { stage: 'chunk', done: 1, total: 1 }],
  [0.2, { stage: 'model-load', file: 'tokenizer.json', loaded: 711_000, total: 711_000, status: 'done' }],
  [0.4, { stage: 'model-load', file: MODEL_FILE, loaded: 0, total: 22_900_000, status: 'progress' }],
  [6.1, { stage: 'model-load', file: MODEL_FILE, loaded: 22_900_000, total: 22_900_000, status: 'done' }],
  [9, { stage: 'embed-leaves', done: 64, total: 412 }],
  [21.5, { stage: 'embed-leaves', done: 384, total: 412 }],
  [22.6, { stage: 'embed-leaves', done: 412, total: 412 }],
];

const MID_BUILD = replay('Pride and Prejudice', 196, [
  ...LEAVES,
  [22.7, { stage: 'cluster', layer: 1, done: 0, total: 1 }],
  [41.2, { stage: 'cluster', layer: 1, done: 1, total: 1 }],
  [41.2, { stage: 'summarize', layer: 1, done: 0, total: 58 }],
  [101.9, { stage: 'summarize', layer: 1, done: 58, total: 58 }, usage(41_230, 5_870, 58)],
  [103.2, { stage: 'embed-summaries', layer: 1, done: 58, total: 58 }],
  [103.3, { stage: 'cluster', layer: 2, done: 0, total: 1 }],
  [109.8, { stage: 'cluster', layer: 2, done: 1, total: 1 }],
  [109.8, { stage: 'summarize', layer: 2, done: 0, total: 9 }],
  [150.4, { stage: 'summarize', layer: 2, done: 4, total: 9 }, usage(47_702, 6_281, 62)],
]);

const MODEL_DOWNLOAD = replay('Meeting notes, March', 14, [
  [0, { stage: 'chunk', done: 3, total: 3 }],
  [0.3, { stage: 'model-load', file: 'tokenizer.json', loaded: 711_000, total: 711_000, status: 'done' }],
  [0.5, { stage: 'model-load', file: MODEL_FILE, loaded: 0, total: 109_600_000, status: 'progress' }],
  [
    13.5,
    { stage: 'model-load', file: MODEL_FILE, loaded: 41_300_000, total: 109_600_000, status: 'progress' },
  ],
]);

const CLUSTERING = replay('Cinderella', 31, [
  ...LEAVES.map(([s, e]) => [s * 0.3, e] as [number, PipelineProgress['event']]),
  [7, { stage: 'cluster', layer: 1, done: 0, total: 1 }],
  [12, { stage: 'cluster', layer: 1, done: 0, total: 1, detail: { step: 'local-gmm', group: 2 } }],
]);

const FAILED = markStopped(
  replay('Annual report 2024', 260, [
    ...LEAVES,
    [23, { stage: 'cluster', layer: 1, done: 1, total: 1 }],
    [23, { stage: 'summarize', layer: 1, done: 0, total: 44 }],
    [61, { stage: 'summarize', layer: 1, done: 13, total: 44 }, usage(9_812, 1_377, 13)],
  ]),
  'failed',
  'The endpoint refused the API key (HTTP 401). Check “API key” under Summarization in Settings, then resume: the 13 summaries written so far are kept.',
  NOW - 190 * SECOND,
);

/** The official RAPTOR demo tree (gpt-3.5-turbo summaries); only layers, tokens and children are needed. */
const OFFICIAL = cinderella as unknown as Pick<RaptorTree, 'nodes' | 'summarizer' | 'embedding'>;
const OFFICIAL_STATS = treeStats(OFFICIAL);
const OFFICIAL_ROOT = OFFICIAL.nodes
  .filter((n) => n.layer === OFFICIAL_STATS.nodesPerLayer.length - 1)
  .map((n) => n.text.replace(/^Summary:\s*/, ''))
  .join(' ');

/** An illustrative two-layer tree with extractive summaries (shape of a ~40k-token book). */
const EXTRACTIVE_STATS: TreeStats = {
  nodesPerLayer: [412, 68, 11],
  summaryLayers: 2,
  leafTokens: 39_870,
  parents: 79,
  avgSummaryTokens: 96.4,
  avgChildTokens: 95.2,
  avgChildrenPerParent: 6.4,
  avgCompressionRatio: 0.19,
  byLayer: [
    {
      layer: 1,
      parents: 68,
      avgSummaryTokens: 96.3,
      avgChildTokens: 95.1,
      avgChildrenPerParent: 6.4,
      avgCompressionRatio: 0.19,
    },
    {
      layer: 2,
      parents: 11,
      avgSummaryTokens: 97.0,
      avgChildTokens: 96.3,
      avgChildrenPerParent: 6.6,
      avgCompressionRatio: 0.18,
    },
  ],
};

const DAY = 86_400_000;

const TREES: TreeSummary[] = [
  {
    id: 'pride',
    title: 'Pride and Prejudice',
    status: 'building',
    origin: 'built',
    documents: [{ name: 'pride-and-prejudice.txt', chars: 711_000, textStored: true }],
    layers: 1,
    nodesPerLayer: [412, 58],
    nodeCount: 470,
    embeddingModel: 'Xenova/multi-qa-MiniLM-L6-cos-v1',
    summarizer: { kind: 'llm', model: 'llama3.2' },
    createdAt: new Date(NOW - 196 * SECOND).toISOString(),
    updatedAt: NOW,
    bytes: 1_912_000,
    checkpoint: { treeId: 'pride', stage: 'summarize', layer: 2, done: 4, total: 9, updatedAt: NOW },
  },
  {
    id: 'cinderella',
    title: 'Cinderella',
    status: 'ready',
    origin: 'built',
    documents: [{ name: 'cinderella.txt', chars: 14_025, textStored: true }],
    layers: 2,
    nodesPerLayer: [34, 6, 1],
    nodeCount: 41,
    embeddingModel: 'Xenova/multi-qa-MiniLM-L6-cos-v1',
    summarizer: { kind: 'extractive' },
    createdAt: new Date(NOW - 2 * DAY).toISOString(),
    updatedAt: NOW - 2 * DAY,
    bytes: 161_400,
  },
  {
    id: 'report',
    title: 'Annual report 2024',
    status: 'failed',
    origin: 'built',
    documents: [
      { name: 'annual-report-2024.pdf', chars: 402_311, textStored: true },
      { name: 'appendix.docx', chars: 51_240, textStored: true },
    ],
    layers: 0,
    nodesPerLayer: [412],
    nodeCount: 412,
    embeddingModel: 'Xenova/multi-qa-MiniLM-L6-cos-v1',
    summarizer: { kind: 'llm', model: 'gpt-4o-mini' },
    createdAt: new Date(NOW - 3 * DAY).toISOString(),
    updatedAt: NOW - 3 * DAY,
    bytes: 1_204_000,
    error: { code: 'AUTH', message: 'The endpoint refused the API key (HTTP 401).' },
    checkpoint: {
      treeId: 'report',
      stage: 'summarize',
      layer: 1,
      done: 13,
      total: 44,
      updatedAt: NOW - 3 * DAY,
    },
  },
  {
    id: 'notes',
    title: 'Meeting notes, March',
    status: 'paused',
    origin: 'built',
    documents: [
      { name: 'notes-03-04.md', chars: 8_211, textStored: true },
      { name: 'notes-03-11.md', chars: 7_090, textStored: true },
      { name: 'notes-03-18.md', chars: 9_954, textStored: true },
    ],
    layers: 0,
    nodesPerLayer: [],
    nodeCount: 0,
    embeddingModel: 'Xenova/multi-qa-mpnet-base-cos-v1',
    summarizer: { kind: 'extractive' },
    createdAt: new Date(NOW - 5 * DAY).toISOString(),
    updatedAt: NOW - 5 * DAY,
    bytes: 26_300,
    checkpoint: {
      treeId: 'notes',
      stage: 'model-load',
      layer: 0,
      done: 41_300_000,
      total: 110_311_000,
      updatedAt: 0,
    },
  },
  {
    id: 'thesis',
    title: 'Thesis draft — chapters 1 to 4 with the literature review and the first experiments',
    status: 'building',
    origin: 'built',
    documents: [{ name: 'thesis.pdf', chars: 298_000, textStored: true }],
    layers: 0,
    nodesPerLayer: [188],
    nodeCount: 188,
    embeddingModel: 'local:aerie-glove-100d',
    summarizer: { kind: 'extractive' },
    createdAt: new Date(NOW - 9 * DAY).toISOString(),
    updatedAt: NOW - 9 * DAY,
    bytes: 402_000,
    checkpoint: { treeId: 'thesis', stage: 'embed-leaves', layer: 0, done: 128, total: 301, updatedAt: 0 },
  },
  {
    id: 'official',
    title: 'Cinderella (official RAPTOR demo tree)',
    status: 'ready',
    origin: 'imported',
    documents: [{ name: 'cinderella.txt', chars: 0, textStored: false }],
    layers: 1,
    nodesPerLayer: OFFICIAL_STATS.nodesPerLayer,
    nodeCount: OFFICIAL.nodes.length,
    embeddingModel: 'openai:text-embedding-ada-002',
    summarizer: { kind: 'llm', model: 'gpt-3.5-turbo' },
    createdAt: '2024-03-01T00:00:00Z',
    updatedAt: NOW - 12 * DAY,
    bytes: 312_900,
  },
];

const CONFIGURED: AppSettings = {
  ...DEFAULT_SETTINGS,
  summarizer: {
    useLlm: true,
    endpoint: {
      protocol: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      apiKey: 'ollama-local-key',
      model: 'llama3.2',
    },
  },
};

/** A fake endpoint test: local Ollama answers, anything else refuses the key. */
async function fakeTestConnection(endpoint: { baseUrl: string; model: string }): Promise<ConnectionResult> {
  await new Promise((resolve) => setTimeout(resolve, 600));
  if (endpoint.baseUrl.includes('localhost:11434'))
    return { ok: true, model: endpoint.model, latencyMs: 212 };
  return { ok: false, message: `HTTP 401 from ${endpoint.baseUrl}: Incorrect API key provided.` };
}

function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function Harness() {
  const [theme, setTheme] = useState<Theme>((params.get('theme') as Theme | null) ?? 'system');
  const [settingsOpen, setSettingsOpen] = useState(params.get('settings') === 'open');
  const [settings, setSettings] = useState<AppSettings>(CONFIGURED);
  const [log, setLog] = useState<string[]>([]);
  const [midBuild, setMidBuild] = useState<BuildProgressState>(MID_BUILD);
  const [trees, setTrees] = useState<TreeSummary[]>(params.get('library') === 'empty' ? [] : TREES);
  const [persisted, setPersisted] = useState(false);

  useLayoutEffect(() => applyTheme(theme), [theme]);
  const note = (text: string) => setLog((l) => [text, ...l].slice(0, 5));
  const title = (id: string) => trees.find((t) => t.id === id)?.title ?? id;

  return (
    <div>
      <header className="harness-bar">
        <h1>Aerie panels</h1>
        <label>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <button type="button" onClick={() => setSettingsOpen(true)}>
          Open settings
        </button>
        <p className="harness-log" role="status">
          {log.length ? `Last: ${log.join(' · ')}` : 'Callbacks are listed here.'}
        </p>
      </header>
      <main className="harness-main">
        <div className="harness-column">
          <p className="harness-caption">Library</p>
          <LibraryPanel
            trees={trees}
            activeTreeId="cinderella"
            runningTreeIds={['pride']}
            storage={{ usage: 48_700_000, quota: 9_870_000_000, persisted }}
            onOpen={(id) => note(`open ${title(id)}`)}
            onRename={(id, t) => {
              note(`rename ${title(id)} → ${t}`);
              setTrees((list) => list.map((tree) => (tree.id === id ? { ...tree, title: t } : tree)));
            }}
            onDelete={(id) => {
              note(`delete ${title(id)}`);
              setTrees((list) => list.filter((tree) => tree.id !== id));
            }}
            onExport={(id) => note(`export ${title(id)}`)}
            onResume={(id) => note(`resume ${title(id)}`)}
            onDuplicate={(id) => note(`duplicate ${title(id)}`)}
            onImport={(file) => note(`import ${file.name}`)}
            onRequestPersistence={() => {
              note('persist');
              setPersisted(true);
            }}
          />
          <LibraryPanel
            trees={[]}
            runningTreeIds={[]}
            storage={{ usage: 0, quota: 9_870_000_000, persisted: true }}
            onOpen={() => undefined}
            onRename={() => undefined}
            onDelete={() => undefined}
            onExport={() => undefined}
            onResume={() => undefined}
            onDuplicate={() => undefined}
            onImport={(file) => note(`import ${file.name}`)}
            onRequestPersistence={() => undefined}
          />
        </div>
        <div className="harness-column">
          <p className="harness-caption">Build progress</p>
          <ProgressView
            progress={midBuild}
            onCancel={() => {
              note('cancel');
              setTimeout(() => setMidBuild((s) => markStopped(s, 'cancelled', undefined, Date.now())), 1500);
            }}
            onResume={() => {
              note('resume');
              setMidBuild(MID_BUILD);
            }}
          />
          <ProgressView
            progress={FAILED}
            onCancel={() => note('cancel')}
            onResume={() => note('resume failed')}
          />
          <ProgressView progress={MODEL_DOWNLOAD} onCancel={() => note('cancel download')} />
          <ProgressView progress={CLUSTERING} onCancel={() => note('cancel clustering')} />
        </div>
        <div className="harness-column">
          <p className="harness-caption">Tree statistics</p>
          <TreeStatsPanel
            stats={OFFICIAL_STATS}
            rootSummary={OFFICIAL_ROOT}
            summarizer={OFFICIAL.summarizer}
            embeddingModel={`openai:${OFFICIAL.embedding.model.replace(/^openai\//, '')}`}
          />
          <TreeStatsPanel
            stats={EXTRACTIVE_STATS}
            rootSummary="Elizabeth Bennet meets Mr Darcy at a ball, where he slights her. She later refuses his proposal."
            summarizer={{ kind: 'extractive' }}
            embeddingModel="Xenova/multi-qa-MiniLM-L6-cos-v1"
          />
        </div>
      </main>
      <SettingsDialog
        open={settingsOpen}
        settings={settings}
        onSave={(next) => {
          note('settings saved');
          setSettings(next);
        }}
        onClose={() => setSettingsOpen(false)}
        testConnection={fakeTestConnection}
      />
    </div>
  );
}

const root = document.getElementById('root');
if (root === null) throw new Error('panels.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
