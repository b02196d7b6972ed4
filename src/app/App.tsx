/**
 * The app shell: lays out the panels and connects them to the state hooks. Orchestration lives in the hooks
 * (src/app/state) and the workers; this component only renders and forwards.
 */
import { useState } from 'react';
import { evalModelName } from './eval/eval-model';
import { useEvaluation } from './eval/useEvaluation';
import { DropOverlay } from './ingest/DropOverlay';
import { NoticeStack } from './notices/Notice';
import { PanelBoundary } from './PanelBoundary';
import { AppHeader } from './shell/AppHeader';
import { AskColumn } from './shell/AskColumn';
import { buildProgressView } from './shell/BuildProgress';
import { DocumentsColumn } from './shell/DocumentsColumn';
import { SettingsPanel } from './shell/SettingsPanel';
import { TreeWorkspace } from './shell/TreeWorkspace';
import { Welcome } from './shell/Welcome';
import { useNotices } from './state/useNotices';
import { useDatabase } from './state/useDatabase';
import { useSettings } from './state/useSettings';
import { useLibrary } from './state/useLibrary';
import { useDocuments } from './state/useDocuments';
import { useBuildAndOpen } from './state/useBuildAndOpen';
import { queryBlocker, questionModelOf } from './state/question-model';
import { useAsk } from './state/useAsk';
import { useLibraryActions } from './state/useLibraryActions';
import { useConversation } from './state/useConversation';
import { useQuestions } from './state/useQuestions';
import { useModeSelections } from './state/useModeSelections';
import { useTheme } from './state/useTheme';
import { useTreeOverview } from './state/useTreeOverview';
import { useViewTabs } from './state/useViewTabs';
import { useTreeDeletions } from './state/useTreeDeletions';
import { useCitationNavigation } from './state/useCitationNavigation';
import { busyOf, useShellServices } from './state/useShellServices';
import { documentsWaitingOf } from './state/useModelWarmup';
import { answerModelOf } from './settings/app-settings';
import './app.css';

/** The page: its state hooks, and the header, the three columns and the Settings dialog they feed. */
export function App() {
  const { notices, notify, dismiss } = useNotices();
  const { db, error: dbError } = useDatabase(notify);
  const userSettings = useSettings(db, dbError !== undefined, notify);
  const { settings, ready: settingsReady, saveOrReport: saveSettingsOrReport } = userSettings;
  useTheme(settings.theme);
  const library = useLibrary(db, notify);
  const docs = useDocuments({ db, notify });
  const { openId, setOpenId, build, open } = useBuildAndOpen(db, notify, library, docs);
  const tree = open.tree;
  const overview = useTreeOverview(tree, open.documents);
  const { stats, placeOfNode, documentText } = overview;
  const ask = useAsk(tree, open.record, settings);
  const conversation = useConversation({
    db,
    treeId: open.tree ? openId : undefined,
    tree,
    settings,
    asker: ask,
    notify,
    libraryVersion: library.trees,
    placeOf: placeOfNode,
  });
  const evaluation = useEvaluation({
    db,
    treeId: tree ? openId : undefined,
    tree,
    record: open.record,
    settings,
    notify,
  });
  const answerModel = answerModelOf(settings);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const tabs = useViewTabs();
  const nav = useCitationNavigation(tree, documentText, tabs.view, tabs.setView);
  // The open tree deleted (here or in another tab): what runs on it stops, and it closes.
  const deletions = useTreeDeletions(openId, {
    stop: () => {
      ask.discard();
      evaluation.cancel();
    },
    open: setOpenId,
    notify,
    title: tree?.title,
  });
  const actions = useLibraryActions({
    db,
    notify,
    refresh: library.refresh,
    callbacks: {
      onOpen: setOpenId,
      onDeleted: deletions.closeDeleted,
      onDraft: async (draft) => {
        await saveSettingsOrReport({ ...settings, params: { ...settings.params, ...draft.params } });
        for (const d of draft.documents) docs.addPaste(d.text, d.name ?? 'Document');
      },
    },
  });
  const questions = useQuestions({
    tree,
    maxLayer: overview.maxLayer,
    ask,
    conversation,
    unanswered: (e: unknown) =>
      deletions.handledGone(e) || actions.report('The question could not be answered', e),
  });
  const modes = useModeSelections(tree, ask.results);
  const building = build.progress?.status === 'running' || build.progress?.status === 'cancelling';
  // Builds take the stored settings: none starts on the defaults shown before they are read.
  const canBuild = docs.ready.length > 0 && !docs.reading && !building && !!db && settingsReady;
  const { install, storage } = useShellServices({
    notify,
    dismiss,
    settings,
    settingsReady,
    settingsOpen,
    trees: library.trees,
    building,
    busy: busyOf({
      building,
      buildsRunning: library.running.length,
      answering: ask.busy,
      evaluating: !!evaluation.activity,
    }),
    pristine: !build.progress && docs.pending.length === 0 && !openId && !settingsOpen,
    documentsWaiting: documentsWaitingOf({ readyCount: docs.ready.length, reading: docs.reading }),
    questionModel: () => (tree ? questionModelOf(tree, open.record, settings) : undefined),
  });
  const progressView = buildProgressView({ build, onKeepData: actions.persist });
  const blocker = dbError ? `Storage is unavailable: ${dbError}` : queryBlocker(tree, settings);

  return (
    <div className="app">
      <DropOverlay onFiles={docs.addFiles} disabled={building} />
      <AppHeader
        title={tree?.title}
        settings={settings}
        settingsReady={settingsReady}
        onTheme={(theme) => void saveSettingsOrReport({ ...settings, theme })}
        install={install}
        settingsOpen={settingsOpen}
        onOpenSettings={() => setSettingsOpen(true)}
      />
      <PanelBoundary name="notices">
        <NoticeStack notices={notices} onDismiss={dismiss} />
      </PanelBoundary>
      <main className="workspace">
        <DocumentsColumn
          {...{ docs, build, library, actions, settings, building, canBuild, tree, openId, progressView }}
          record={open.record}
          onOpen={setOpenId}
        />
        <section className="center-column" aria-label="Tree">
          {tree && stats ? (
            <TreeWorkspace
              {...{ tree, open, tabs, modes, nav, db, evaluation, blocker }}
              overview={{ ...overview, stats }}
              answerModel={answerModel ? evalModelName(answerModel) : undefined}
            />
          ) : (
            <Welcome
              progressView={progressView}
              loading={open.loading}
              error={open.error}
              building={building}
            />
          )}
        </section>
        <AskColumn
          {...{ tree, blocker, ask, conversation, questions, nav, overview, modes }}
          stored={!!db}
          hasAnswerModel={!!answerModel}
          report={actions.report}
        />
      </main>
      <SettingsPanel
        open={settingsOpen && settingsReady}
        settings={settings}
        onSave={userSettings.save}
        onClose={() => setSettingsOpen(false)}
        actions={actions}
        storage={storage}
      />
    </div>
  );
}
