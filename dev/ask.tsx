/**
 * Harness page for the Ask panel, the Documents panel, the drop overlay and notices (`npx vite`, then
 * /dev/ask.html). Every component is shown in its representative states with made-up data; callbacks write to
 * the bar at the top ("Last: …"). URL parameters make a view repeatable for screenshots:
 * theme=light|dark|system, only=<card id>[,<card id>…] (ids below), freeze=1 (the streaming answer stops at a
 * fixed point instead of looping), stack=1 (show the notice stack).
 */
// React Fast Refresh's preamble as a module: the dev page carries no inline script (build/security-plugin.ts).
import '@vitejs/plugin-react/preamble';
import {
  createContext,
  StrictMode,
  useContext,
  useEffect,
  useLayoutEffect,
  useState,
  type ReactNode,
} from 'react';
import { createRoot } from 'react-dom/client';
import { AskPanel, type AskPanelProps } from '../src/app/ask/AskPanel';
import { DropOverlay } from '../src/app/ingest/DropOverlay';
import { IngestPanel } from '../src/app/ingest/IngestPanel';
import { Notice, NoticeStack, type StackedNotice } from '../src/app/notices/Notice';
import type { RetrievalMode } from '../src/app/modes';
import type {
  AnswerState,
  AskResults,
  ModeResult,
  PendingDocument,
  RetrievalSettings,
  RetrievedPassage,
} from '../src/app/state/types';
import '../src/app/theme.css';
import '../src/app/shared.css';

type Theme = 'system' | 'light' | 'dark';
const params = new URLSearchParams(window.location.search);
const FROZEN = params.get('freeze') === '1';

const QUESTION = 'How does the prince find Cinderella after the ball?';
const MAX_LAYER = 3;

const DEFAULT_SETTINGS: RetrievalSettings = {
  mode: 'collapsed',
  collapsedMaxTokens: 2000,
  traversalTopK: 5,
  traversalStartLayer: MAX_LAYER,
  traversalLayers: MAX_LAYER + 1,
  traversalMaxTokens: 2000,
  leavesMaxTokens: 2000,
  search: 'both',
  rerank: false,
  distinct: true,
};

const LONG_LEAF =
  'Now the king’s son had it proclaimed by sound of trumpet that he would marry her whose foot this slipper ' +
  'would just fit. They began to try it on the princesses, then the duchesses and the whole court, but in ' +
  'vain. It was brought to the two sisters, who did all they possibly could to force their foot into the ' +
  'slipper, but they did not succeed. Cinderella, who saw all this, and knew that it was her slipper, said ' +
  'to them, laughing, “Let me see if it will not fit me.” Her sisters burst out laughing, and began to banter ' +
  'with her. The gentleman who was sent to try the slipper looked earnestly at Cinderella, and, finding her ' +
  'very handsome, said that it was only just that she should try as well, and that he had orders to let ' +
  'everyone try.';

/** Passages as a mode returns them; one carries markup, which must show as text. */
const P: Record<string, RetrievedPassage> = {
  top: {
    id: 41,
    layer: 2,
    score: 0.8123,
    tokens: 142,
    text:
      'A summary of the second half of the tale: Cinderella leaves the ball at midnight and loses a glass ' +
      'slipper; the prince searches the kingdom and finds her when the slipper fits.',
  },
  leafSlipper: { id: 12, layer: 0, score: 0.7941, tokens: 168, text: LONG_LEAF },
  mid: {
    id: 33,
    layer: 1,
    score: 0.7712,
    tokens: 88,
    text: 'The stepsisters fail to fit the slipper; Cinderella asks to try it, and it fits perfectly.',
  },
  leafBall: {
    id: 9,
    layer: 0,
    score: 0.7304,
    tokens: 71,
    text: 'She left behind one of her glass slippers, which the prince took up most carefully.',
  },
  leafMarkup: {
    id: 17,
    layer: 0,
    score: 0.6988,
    tokens: 39,
    text: 'The herald read: <b>By order of the prince</b> <script>alert("not run")</script> every maiden shall try.',
  },
  mid2: {
    id: 35,
    layer: 1,
    score: 0.6651,
    tokens: 93,
    text: 'The fairy godmother turns a pumpkin into a coach and warns that the magic ends at midnight.',
  },
  leafGodmother: {
    id: 4,
    layer: 0,
    score: 0.6502,
    tokens: 64,
    text: 'Her godmother touched her with her wand, and her clothes turned into cloth of gold and silver.',
  },
  top2: {
    id: 44,
    layer: 3,
    score: 0.6211,
    tokens: 121,
    text: 'The whole story: kindness rewarded, a ball, a lost slipper, and a marriage.',
  },
};

function modeResult(mode: RetrievalMode, passages: RetrievedPassage[]): ModeResult {
  return { mode, passages, tokens: passages.reduce((s, p) => s + p.tokens, 0) };
}

const RESULTS: Record<RetrievalMode, ModeResult> = {
  collapsed: modeResult('collapsed', [P.top, P.leafSlipper, P.mid, P.leafBall, P.leafMarkup, P.mid2]),
  traversal: modeResult('traversal', [
    P.top2,
    P.top,
    P.mid,
    P.mid2,
    P.leafSlipper,
    P.leafBall,
    P.leafGodmother,
  ]),
  leaves: modeResult('leaves', [P.leafSlipper, P.leafBall, P.leafMarkup, P.leafGodmother]),
};

const ANSWER_TEXT =
  'After the ball, the prince has it proclaimed that he will marry the woman whose foot fits the glass ' +
  'slipper she left behind [1][4]. The slipper is tried on princesses, duchesses and the stepsisters, none ' +
  'of whom can wear it [2, 3]. Cinderella asks to try, and it fits perfectly [3].\n\nThe herald’s ' +
  'proclamation reads “<b>By order of the prince</b>” [5]. Brackets such as [a] or [9] are not citations.';

const USAGE = { promptTokens: 2143, completionTokens: 96, totalTokens: 2239, requests: 1, unreported: 0 };

/** Where this many characters of the answer are shown when frozen: mid-sentence, a citation about to open. */
const FROZEN_STREAM_CHARS = 196;
const STREAM_STEP_CHARS = 5;
const STREAM_STEP_MS = 70;
const STREAM_PAUSE_STEPS = 25;

/** The answer text as a stream would grow it, looping (or frozen with freeze=1). */
function useStreamedText(full: string): { text: string; streaming: boolean } {
  const [length, setLength] = useState(FROZEN ? FROZEN_STREAM_CHARS : 0);
  useEffect(() => {
    if (FROZEN) return;
    const timer = setInterval(
      () =>
        setLength((n) =>
          n >= full.length + STREAM_PAUSE_STEPS * STREAM_STEP_CHARS ? 0 : n + STREAM_STEP_CHARS,
        ),
      STREAM_STEP_MS,
    );
    return () => clearInterval(timer);
  }, [full]);
  return { text: full.slice(0, length), streaming: length < full.length };
}

const LogContext = createContext<(message: string) => void>(() => {});

type AskDemoProps = Partial<AskPanelProps> & { initial?: Partial<RetrievalSettings> };

/** An Ask panel with its own settings state, logging its callbacks. */
function AskDemo({ initial, ...props }: AskDemoProps) {
  const log = useContext(LogContext);
  const [settings, setSettings] = useState<RetrievalSettings>({ ...DEFAULT_SETTINGS, ...initial });
  const [active, setActive] = useState<number>();
  return (
    <AskPanel
      settings={settings}
      maxLayer={MAX_LAYER}
      busy={false}
      hasAnswerModel
      activeNodeId={active}
      onSettingsChange={(next) => {
        setSettings(next);
        log(`settings ${JSON.stringify(next)}`);
      }}
      onAsk={(q) => log(`onAsk(${JSON.stringify(q)}) with ${settings.mode}`)}
      onCompare={(q) => log(`onCompare(${JSON.stringify(q)})`)}
      onStop={() => log('onStop()')}
      onOpenNode={(id) => {
        setActive(id);
        log(`onOpenNode(${id})`);
      }}
      {...props}
    />
  );
}

function StreamingDemo() {
  const { text, streaming } = useStreamedText(ANSWER_TEXT);
  const answer: AnswerState = { mode: 'collapsed', text, streaming, citations: [] };
  if (!streaming) answer.usage = USAGE;
  return (
    <AskDemo
      busy={streaming}
      results={{ question: QUESTION, results: { collapsed: RESULTS.collapsed }, answer }}
    />
  );
}

const DONE_ANSWER: AskResults = {
  question: QUESTION,
  results: { collapsed: RESULTS.collapsed },
  answer: { mode: 'collapsed', text: ANSWER_TEXT, streaming: false, citations: [], usage: USAGE },
};

const ERROR_ANSWER: AskResults = {
  question: QUESTION,
  results: { traversal: RESULTS.traversal },
  answer: {
    mode: 'traversal',
    text: 'The prince searches the kingdom with the slipper [1]',
    streaming: false,
    citations: [{ n: 1, nodeId: RESULTS.traversal.passages[0].id }],
    error: 'The endpoint answered 429 Too Many Requests (rate limit reached). Wait a minute, then ask again.',
  },
};

const CONTEXT_ONLY: AskResults = { question: QUESTION, results: { traversal: RESULTS.traversal } };
const COMPARED: AskResults = { question: QUESTION, results: RESULTS };

const SAMPLE_DOCUMENTS: PendingDocument[] = [
  {
    key: 'a',
    name: 'cinderella.txt',
    type: 'txt',
    size: 12_480,
    chars: 12_311,
    status: 'ready',
    warnings: [],
  },
  {
    key: 'b',
    name: 'Annual report 2023 — final version with all the appendices and tables.pdf',
    type: 'pdf',
    size: 4_812_300,
    chars: 0,
    status: 'reading',
    warnings: [],
  },
  {
    key: 'c',
    name: 'scan.pdf',
    type: 'pdf',
    size: 2_310_000,
    chars: 0,
    status: 'error',
    error: 'scan.pdf has no text layer: it looks like scanned images. Run OCR on it, or add a text version.',
    warnings: [],
  },
  {
    key: 'd',
    name: 'notes.md',
    type: 'md',
    size: 3_204,
    chars: 3_101,
    status: 'ready',
    warnings: ['Decoded as Windows-1252: the file is not valid UTF-8.'],
  },
  {
    key: 'e',
    name: '<img src=x onerror=alert(1)>.html',
    type: 'html',
    size: 840,
    chars: 512,
    status: 'ready',
    warnings: [],
  },
];

/** How long the harness pretends a file takes to read. */
const FAKE_READ_MS = 1200;
let nextKey = 0;

function IngestDemo({ initial = [], disabled }: { initial?: PendingDocument[]; disabled?: boolean }) {
  const log = useContext(LogContext);
  const [documents, setDocuments] = useState(initial);
  const add = (doc: Omit<PendingDocument, 'key' | 'status' | 'chars' | 'warnings'>, chars: number) => {
    const key = `added-${nextKey++}`;
    setDocuments((docs) => [...docs, { ...doc, key, status: 'reading', chars: 0, warnings: [] }]);
    setTimeout(
      () => setDocuments((docs) => docs.map((d) => (d.key === key ? { ...d, status: 'ready', chars } : d))),
      FAKE_READ_MS,
    );
  };
  return (
    <IngestPanel
      documents={documents}
      disabled={disabled}
      onAddFiles={(files) => {
        log(`onAddFiles(${files.map((f) => f.name).join(', ')})`);
        for (const f of files) add({ name: f.name, type: 'txt', size: f.size }, f.size);
      }}
      onPaste={(text, name) => {
        log(`onPaste(${text.length} characters, ${JSON.stringify(name)})`);
        add({ name, type: 'paste', size: new Blob([text]).size }, text.length);
      }}
      onTrySample={() => {
        log('onTrySample()');
        add({ name: 'cinderella.txt', type: 'txt', size: 12_480 }, 12_311);
      }}
      onRemove={(key) => {
        log(`onRemove(${key})`);
        setDocuments((docs) => docs.filter((d) => d.key !== key));
      }}
    />
  );
}

function NoticesDemo() {
  const log = useContext(LogContext);
  return (
    <div className="harness-notices">
      <Notice
        kind="error"
        title="The build stopped: the summarising model failed."
        actions={[
          { label: 'Retry', onClick: () => log('Retry') },
          { label: 'Open settings', onClick: () => log('Open settings') },
        ]}
        onDismiss={() => log('dismiss error')}
      >
        The endpoint answered 401 Unauthorized. Check the API key in Settings.
      </Notice>
      <Notice kind="warning" title="Storage is almost full." onDismiss={() => log('dismiss warning')}>
        This browser lets Aerie keep 1.2 GB; 1.1 GB is used. Export or delete old trees.
      </Notice>
      <Notice kind="info" title="Another tab has Aerie open.">
        Changes made there appear here when you reload.
      </Notice>
      <Notice
        kind="success"
        title="Tree built: 412 nodes in 4 layers."
        onDismiss={() => log('dismiss success')}
      />
    </div>
  );
}

const STACK: StackedNotice[] = [
  { id: 's1', kind: 'success', title: 'Added 3 documents.' },
  { id: 's2', kind: 'error', title: 'report.docx could not be read.', children: 'The file is encrypted.' },
];

/** Every card of the page, by id (for only=…). */
const CARDS: { id: string; title: string; render(): ReactNode }[] = [
  {
    id: 'disabled',
    title: 'Ask — no tree',
    render: () => <AskDemo disabledReason="Build or open a tree first." />,
  },
  { id: 'empty', title: 'Ask — empty, no answering model', render: () => <AskDemo hasAnswerModel={false} /> },
  { id: 'busy', title: 'Ask — retrieving', render: () => <AskDemo busy /> },
  { id: 'streaming', title: 'Ask — answer streaming', render: () => <StreamingDemo /> },
  { id: 'answer', title: 'Ask — answer with citations', render: () => <AskDemo results={DONE_ANSWER} /> },
  {
    id: 'error',
    title: 'Ask — the LLM failed',
    render: () => <AskDemo results={ERROR_ANSWER} initial={{ mode: 'traversal' }} />,
  },
  {
    id: 'context',
    title: 'Ask — context only (no answering model)',
    render: () => <AskDemo results={CONTEXT_ONLY} hasAnswerModel={false} initial={{ mode: 'traversal' }} />,
  },
  { id: 'compare', title: 'Ask — compare modes', render: () => <AskDemo results={COMPARED} /> },
  {
    id: 'invalid',
    title: 'Ask — options that do not fit the tree',
    render: () => <AskDemo maxLayer={1} initial={{ mode: 'traversal', traversalStartLayer: 3 }} />,
  },
  { id: 'ingest-empty', title: 'Documents — empty', render: () => <IngestDemo /> },
  {
    id: 'ingest',
    title: 'Documents — reading, ready, error',
    render: () => <IngestDemo initial={SAMPLE_DOCUMENTS} />,
  },
  {
    id: 'ingest-disabled',
    title: 'Documents — disabled while building',
    render: () => <IngestDemo initial={SAMPLE_DOCUMENTS.slice(0, 1)} disabled />,
  },
  { id: 'notices', title: 'Notices', render: () => <NoticesDemo /> },
];

function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function Harness() {
  const [theme, setTheme] = useState<Theme>((params.get('theme') as Theme | null) ?? 'system');
  const [last, setLast] = useState('');
  const [stack, setStack] = useState(params.get('stack') === '1');
  useLayoutEffect(() => applyTheme(theme), [theme]);
  const only = params.get('only')?.split(',');
  const cards = only === undefined ? CARDS : CARDS.filter((c) => only.includes(c.id));
  return (
    <LogContext.Provider value={setLast}>
      <header className="harness-bar">
        <h1>Ask, documents, notices</h1>
        <fieldset>
          <legend>Theme</legend>
          {(['system', 'light', 'dark'] as const).map((t) => (
            <label key={t}>
              <input type="radio" name="theme" checked={theme === t} onChange={() => setTheme(t)} /> {t}
            </label>
          ))}
        </fieldset>
        <label>
          <input type="checkbox" checked={stack} onChange={(e) => setStack(e.target.checked)} /> Notice stack
        </label>
        <output className="harness-log" data-testid="harness-log">
          {last === '' ? 'Drag files anywhere on the page.' : `Last: ${last}`}
        </output>
      </header>
      <main className="harness-grid" data-only={only === undefined ? undefined : ''}>
        {cards.map((card) => (
          <section key={card.id} className="harness-card" data-card={card.id} aria-label={card.title}>
            <h2>{card.title}</h2>
            {card.render()}
          </section>
        ))}
      </main>
      <DropOverlay
        onFiles={(files) => setLast(`DropOverlay onFiles(${files.map((f) => f.name).join(', ')})`)}
      />
      <NoticeStack notices={stack ? STACK : []} />
    </LogContext.Provider>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('ask.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
