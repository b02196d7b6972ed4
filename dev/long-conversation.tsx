/**
 * Harness page for long conversations (`npx vite`, then /dev/long-conversation.html), driven by
 * e2e/long-conversation.spec.ts:
 * - the Ask panel with the last 20 turns of a 1,000-turn conversation shown (as the app shows them), whose turn
 *   objects count every read of their question (`window.__turnReads`): typing in the question box or streaming
 *   an answer (`window.__streamAnswer(n)`) must read none of them, i.e. never render the turns again;
 * - `window.__seedConversation(turns)`: stores a tree and a conversation of that many turns in this origin's
 *   IndexedDB through the app's storage (tests/support/conversation-seed.ts), for the app on the same server.
 */
// React Fast Refresh's preamble as a module: the dev page carries no inline script (build/security-plugin.ts).
import '@vitejs/plugin-react/preamble';
import { useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AskPanel } from '../src/app/ask/AskPanel';
import { defaultRetrievalSettings } from '../src/app/state/retrieval-options';
import type { AskResults, ConversationProps } from '../src/app/state/types';
import { openAerieDb, type ConversationTurn } from '../src/storage';
import { seedConversation, type SeededConversation } from '../tests/support/conversation-seed';
import '../src/app/theme.css';
import '../src/app/shared.css';

declare global {
  interface Window {
    __turnReads: number;
    __streamAnswer(deltas: number): Promise<void>;
    __seedConversation(turns: number): Promise<SeededConversation>;
  }
}

const SHOWN = 20;
const EARLIER = 980;
window.__turnReads = 0;

/** A turn whose question counts its reads: a render of the turn reads it. */
function countedTurn(i: number): ConversationTurn {
  const question = `Question ${EARLIER + i + 1}: what happened near the mill?`;
  return {
    id: `t-${i}`,
    get question() {
      window.__turnReads++;
      return question;
    },
    search: question,
    rewrite: 'none',
    askedAt: 0,
    settings: { mode: 'collapsed', search: 'keywords', rerank: false, distinct: true, maxTokens: 2000 },
    retrieved: { collapsed: [1, 2] },
    passages: [
      { id: 1, layer: 0, text: 'The miller kept the wheel turning by the river.' },
      { id: 2, layer: 1, text: 'The mill and the river, the miller and his daughter.' },
    ],
    answer: {
      text: 'The miller [1] by the river [2].',
      citations: [
        { n: 1, nodeId: 1 },
        { n: 2, nodeId: 2 },
      ],
    },
    treeStamp: 's',
  } as ConversationTurn;
}

const TURNS = Array.from({ length: SHOWN }, (_, i) => countedTurn(i));
const noop = () => undefined;
const CONVERSATION: ConversationProps = {
  bar: {
    conversations: [{ id: 'c', title: 'Who lives by the river mill?', turns: EARLIER + SHOWN }],
    activeId: 'c',
    onSelect: noop,
    onNew: noop,
    onExport: noop,
    onDelete: noop,
    onDeleteAll: noop,
  },
  turns: TURNS,
  earlier: EARLIER,
  onShowEarlier: noop,
  stamp: 's',
  onConfirm: noop,
  onCancelPending: noop,
};

function Harness() {
  const [settings, setSettings] = useState(() => defaultRetrievalSettings(2));
  const [results, setResults] = useState<AskResults>();
  const openNode = useCallback(noop, []);
  window.__streamAnswer = async (deltas) => {
    let text = '';
    for (let i = 0; i < deltas; i++) {
      text += `word${i} `;
      setResults({
        question: 'What next?',
        results: { collapsed: { mode: 'collapsed', tokens: 10, passages: [] } },
        answer: { mode: 'collapsed', text, streaming: i < deltas - 1, citations: [] },
      });
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  };
  return (
    <AskPanel
      settings={settings}
      maxLayer={2}
      onSettingsChange={setSettings}
      busy={results?.answer?.streaming === true}
      onAsk={noop}
      onCompare={noop}
      results={results}
      onOpenNode={openNode}
      hasAnswerModel
      conversation={CONVERSATION}
    />
  );
}

window.__seedConversation = async (turns) => {
  const db = await openAerieDb();
  try {
    return await seedConversation(db, { turns });
  } finally {
    db.close();
  }
};

createRoot(document.getElementById('root')!).render(<Harness />);
