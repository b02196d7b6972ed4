/**
 * A long conversation for the browser tests and the conversation bench (runs in the browser, over the app's
 * own storage functions): a generated tree (tests/support/synthetic-tree.ts) recorded with the app's offline
 * model, so questions to it can be embedded and asked, and one conversation of `turns` turns of the size a
 * real one has (about 9 kB each: the question, a 2,000-token context of ten passages, an answer of ~800
 * characters with citations), stored the way the app stores them. Seeded: the same options, the same data.
 */
import { configuredEndpoints, DEFAULT_SETTINGS, type AppSettings } from '../../src/app/settings/app-settings';
import { serializeTree } from '../../src/core/tree-format';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import {
  importTree,
  saveTurn,
  setSettings,
  startConversation,
  type AerieDb,
  type ConversationTurn,
} from '../../src/storage';
import { syntheticTree } from './synthetic-tree';

/** The offline model's vector length: questions to the seeded tree are embedded with it. */
const OFFLINE_DIM = 100;
/** Passages a turn keeps (a 2,000-token context). */
const PASSAGES = 10;

/** What was seeded. */
export interface SeededConversation {
  treeId: string;
  treeTitle: string;
  conversationId: string;
  /** The conversation's title as the bar lists it. */
  title: string;
  turns: number;
}

/**
 * Stores a tree of about `nodes` nodes and a conversation of `turns` turns with it; resolves with their ids.
 * `title` names the tree (the library lists it).
 */
export async function seedConversation(
  db: AerieDb,
  options: { turns: number; nodes?: number; title?: string },
): Promise<SeededConversation> {
  const tree = syntheticTree({ nodes: options.nodes ?? 300, dim: OFFLINE_DIM, wordsPerLeaf: 110, seed: 34 });
  tree.embedding = { model: OFFLINE_MODEL_ID, dim: OFFLINE_DIM };
  tree.title = options.title ?? `Long conversation (${options.turns} turns)`;
  const treeId = await importTree(db, serializeTree(tree));
  const stamp = `${tree.createdAt}#${tree.nodes.length}`;
  const conversationId = `c-seeded-${options.turns}`;
  const first = 'Who lives by the river mill?';
  const conversation = await startConversation(db, treeId, conversationId, first, 1_700_000_000_000);
  for (let i = 0; i < options.turns; i++) {
    const passages = Array.from({ length: PASSAGES }, (_, p) => {
      const node = tree.nodes[(i * 7 + p * 13) % tree.nodes.length];
      return { id: node.id, layer: node.layer, text: node.text };
    });
    const question =
      i === 0
        ? first
        : `Question ${i + 1}: what happened near the ${['mill', 'castle', 'forest', 'garden'][i % 4]} next?`;
    const turn: ConversationTurn = {
      id: `t-${i}`,
      question,
      search: question,
      rewrite: 'none',
      askedAt: 1_700_000_000_000 + i * 60_000,
      settings: { mode: 'collapsed', search: 'keywords', rerank: false, distinct: true, maxTokens: 2000 },
      retrieved: { collapsed: passages.map((p) => p.id) },
      passages,
      answer: {
        text: passages
          .slice(0, 4)
          .map((p, n) => `${p.text.slice(0, 180)} [${n + 1}]`)
          .join(' '),
        citations: passages.slice(0, 4).map((p, n) => ({ n: n + 1, nodeId: p.id })),
        writer: 'fake-model',
      },
      treeStamp: stamp,
    };
    await saveTurn(db, treeId, conversationId, turn, 1_700_000_000_000 + i * 60_000);
  }
  return { treeId, treeTitle: tree.title, conversationId, title: conversation.title, turns: options.turns };
}

/**
 * Saves settings that answer with the OpenAI-compatible endpoint at `baseUrl` (the FAKE LLM server of the bench)
 * and embed with the offline model, as the Settings dialog would save them.
 */
export async function seedAnswerSettings(db: AerieDb, baseUrl: string, model = 'fake-model'): Promise<void> {
  const settings: AppSettings = {
    ...DEFAULT_SETTINGS,
    embedding: { ...DEFAULT_SETTINGS.embedding, model: OFFLINE_MODEL_ID },
    answer: { sameAsSummarizer: false, endpoint: { protocol: 'openai', baseUrl, apiKey: '', model } },
  };
  await setSettings(db, { appSettings: settings, llmEndpoints: configuredEndpoints(settings) });
}
