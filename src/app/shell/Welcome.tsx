/** The centre column with no tree open: the build's progress, the tree opening, its error, or the welcome text. */
import type { ReactNode } from 'react';
import { PanelBoundary } from '../PanelBoundary';

/** What the centre column shows while no tree is open. */
export interface WelcomeProps {
  /** The build's progress view, when a build has progress. */
  progressView: ReactNode;
  loading: boolean;
  error: string | undefined;
  building: boolean;
}

/** The centre column while no tree is open. */
export function Welcome({ progressView, loading, error, building }: WelcomeProps) {
  return (
    <div className="welcome">
      {progressView && !loading ? (
        <div className="center-progress">
          <PanelBoundary name="build progress">{progressView}</PanelBoundary>
          {building && (
            <p className="building-note">
              You can keep using the page while the tree grows. Closing the tab pauses the build; it resumes
              from the library without repeating finished work.
            </p>
          )}
        </div>
      ) : loading ? (
        <p>Opening the tree…</p>
      ) : error ? (
        <p role="alert">{error}</p>
      ) : (
        <>
          <h2>Build a RAPTOR tree from your documents</h2>
          <ol>
            <li>Drop a document anywhere on this page, or use “Add documents” (or “Try the sample”).</li>
            <li>Press “Build tree”. Everything runs in this browser; nothing is uploaded.</li>
            <li>Ask questions: compare collapsed-tree retrieval, tree traversal and plain leaf search.</li>
          </ol>
          <p>
            For LLM summaries and answers, set an OpenAI-compatible, Anthropic, Ollama or LM Studio endpoint
            in Settings. Without one, Aerie summarises extractively and shows the retrieved passages.
          </p>
        </>
      )}
    </div>
  );
}
