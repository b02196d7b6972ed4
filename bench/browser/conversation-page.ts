/**
 * The conversation benchmark's seeding page, built with the app (same origin, so the same IndexedDB):
 * `window.aerieConversationBench.seed(turns, answerUrl)` stores a generated tree with one conversation of
 * `turns` turns and settings that answer with the endpoint at `answerUrl` (tests/support/conversation-seed.ts),
 * through the app's own storage functions; `settings(answerUrl)` the settings alone (`npm run bench
 * ask-during-build`). The page also holds the bare text box the keystroke reference is typed into.
 */
import { openAerieDb } from '../../src/storage';
import {
  seedAnswerSettings,
  seedConversation,
  type SeededConversation,
} from '../../tests/support/conversation-seed';

declare global {
  interface Window {
    aerieConversationBench: {
      seed(turns: number, answerUrl: string): Promise<SeededConversation>;
      /** Only the settings: answers by the endpoint at `answerUrl`, the offline model, extractive summaries. */
      settings(answerUrl: string): Promise<void>;
    };
  }
}

window.aerieConversationBench = {
  async seed(turns, answerUrl) {
    const db = await openAerieDb();
    try {
      await seedAnswerSettings(db, answerUrl);
      return await seedConversation(db, { turns, title: `Conversation bench (${turns} turns)` });
    } finally {
      db.close();
    }
  },
  async settings(answerUrl) {
    const db = await openAerieDb();
    try {
      await seedAnswerSettings(db, answerUrl);
    } finally {
      db.close();
    }
  },
};
