/**
 * The Ask panel's questions: the retrieval settings (the paper's for the open tree's height, reset when another
 * tree opens), asking and comparing through the conversation, and the conversation's panel props.
 */
import { useEffect, useState } from 'react';
import type { RaptorTree } from '../../core/types';
import { defaultRetrievalSettings, type useAsk } from './useAsk';
import { useConversationPanel, type useConversation } from './useConversation';
import type { RetrievalSettings } from './types';

/** What the questions are asked of, and where a question that fails is reported. */
export interface QuestionsOptions {
  tree: RaptorTree | undefined;
  maxLayer: number;
  ask: ReturnType<typeof useAsk>;
  conversation: ReturnType<typeof useConversation>;
  /** Reports a question that could not be answered. */
  unanswered: (e: unknown) => void;
}

/** The retrieval settings, the ask and compare handlers, and the conversation's panel props. */
export function useQuestions({ tree, maxLayer, ask, conversation, unanswered }: QuestionsOptions) {
  const [retrieval, setRetrieval] = useState<RetrievalSettings>(() => defaultRetrievalSettings(0));
  // A new tree starts with the paper's retrieval settings for its height.
  useEffect(() => {
    setRetrieval(defaultRetrievalSettings(maxLayer));
    ask.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when another tree opens
  }, [tree]);
  const onAsk = (question: string, followUp: boolean) =>
    void conversation.submit(question, retrieval, 'ask', followUp).catch(unanswered);
  const onCompare = (question: string, followUp: boolean) =>
    void conversation.submit(question, retrieval, 'compare', followUp).catch(unanswered);
  const onConfirmSearch = (search: string) => void conversation.confirm(search).catch(unanswered);
  const conversationProps = useConversationPanel(conversation, ask.results, onConfirmSearch);
  return { retrieval, setRetrieval, onAsk, onCompare, conversationProps };
}
