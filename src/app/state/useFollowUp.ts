/**
 * A follow-up made standalone before it is searched (useConversation.ts): rewritten by the answering model and
 * shown, editable, before it runs, or, without a model, joined with the questions before it.
 */
import { useCallback, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import { generateWorker } from '../../client/workers';
import { builtinChat, endpointChat, joinFollowUp, rewriteFollowUp, type ChatFn } from '../../llm';
import { connectGenerator } from '../../models/generate/generate-client';
import type { ConversationTurn } from '../../storage';
import { earlierTurns } from '../conversations/turns';
import { answerModelOf, toLlmEndpoint, type AnswerModel, type AppSettings } from '../settings/app-settings';
import { errorMessage, isCancel } from './messages';
import type { AskKind, PendingSearch, RetrievalSettings } from './types';
import type { TurnWindow } from './useConversationList';

/** The answering model as a plain chat function (for the rewrite), loading the built-in model if needed. */
async function chatOf(model: AnswerModel, signal: AbortSignal): Promise<ChatFn> {
  if (model.kind === 'endpoint') return endpointChat(toLlmEndpoint(model.endpoint), false);
  const generator = await connectGenerator(generateWorker(), model.generator, () => undefined, { signal });
  return builtinChat(generator);
}

/** Runs a question in the active conversation, searching with `search` (useConversation's `run`). */
export type RunQuestion = (
  question: string,
  kind: AskKind,
  s: RetrievalSettings,
  search: string,
  rewrite: ConversationTurn['rewrite'],
) => Promise<void>;

/** The follow-up's state, owned by useConversation, and what the rewrite reads and runs. */
export interface FollowUpOptions {
  settings: AppSettings;
  run: RunQuestion;
  activeRef: MutableRefObject<string | undefined>;
  windowRef: MutableRefObject<TurnWindow | undefined>;
  pending: PendingSearch | undefined;
  setPending: Dispatch<SetStateAction<PendingSearch | undefined>>;
  rewriting: MutableRefObject<AbortController | undefined>;
}

/** Submits a question (rewriting a follow-up first), confirms the rewrite, or dismisses it. */
export function useFollowUp({
  settings,
  run,
  activeRef,
  windowRef,
  pending,
  setPending,
  rewriting,
}: FollowUpOptions) {
  /**
   * Asks `question`: at once when it starts a conversation, is not a follow-up (`followUp` false: the user
   * said so) or no answering model is set (a follow-up is then joined with the questions before it); otherwise
   * the model first rewrites the follow-up and the page shows the rewrite for the user to run, edit or drop.
   */
  const submit = useCallback(
    async (question: string, s: RetrievalSettings, kind: AskKind, followUp = true) => {
      const shown = windowRef.current?.conversationId === activeRef.current ? windowRef.current : undefined;
      const turns = shown?.turns ?? [];
      if (turns.length === 0 || !followUp) return run(question, kind, s, question, 'none');
      const model = answerModelOf(settings);
      const earlier = earlierTurns(turns);
      if (!model) return run(question, kind, s, joinFollowUp(earlier, question), 'joined');
      rewriting.current?.abort();
      const abort = new AbortController();
      rewriting.current = abort;
      setPending({ question, kind, settings: s, status: 'rewriting' });
      try {
        const chat = await chatOf(model, abort.signal);
        const proposed = await rewriteFollowUp(chat, earlier, question, { signal: abort.signal });
        if (rewriting.current === abort) {
          setPending({ question, kind, settings: s, status: 'confirm', proposed, rewrite: 'llm' });
        }
      } catch (error) {
        if (isCancel(error) || rewriting.current !== abort) return;
        // The follow-up is not lost: the joined form is offered instead, with the reason.
        setPending({
          question,
          kind,
          settings: s,
          status: 'confirm',
          proposed: joinFollowUp(earlier, question),
          rewrite: 'joined',
          note: `The model could not rewrite the follow-up (${errorMessage(error)}), so it is joined with the questions before it.`,
        });
      }
    },
    [settings, run, activeRef, windowRef, rewriting, setPending],
  );

  /** Runs the pending follow-up with `search` (as proposed, or as the user edited it). */
  const confirm = useCallback(
    (search: string) => {
      if (!pending || pending.status !== 'confirm') return Promise.resolve();
      const text = search.trim() || pending.question;
      const rewrite = text === pending.question ? 'none' : (pending.rewrite ?? 'llm');
      setPending(undefined);
      return run(pending.question, pending.kind, pending.settings, text, rewrite);
    },
    [pending, run, setPending],
  );

  const dismiss = useCallback(() => {
    rewriting.current?.abort();
    setPending(undefined);
  }, [rewriting, setPending]);
  return { submit, confirm, dismiss };
}
