/**
 * The app shell: lays out the panels and connects them to the state hooks. Orchestration lives in the hooks
 * (src/app/state) and the workers; this component only renders and forwards.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { DocumentPanel, type ActiveCitation } from './document/DocumentPanel';
import { citationTarget } from './document/citation-target';
import { parseOriginalKey } from './document/original-key';
import { returnPointOf, returnTo, type ReturnPoint } from './document/return-point';
import { TreeView } from './tree/TreeView';
import { ReachStrip } from './tree/ReachStrip';
import { SelectionHistogram } from './tree/SelectionHistogram';
import { NodeInspector } from './tree/NodeInspector';
import { SettingsDialog } from './settings/SettingsDialog';
import { ProgressView } from './build/ProgressView';
import { TreeStatsPanel } from './build/TreeStatsPanel';
import { LibraryPanel } from './library/LibraryPanel';
import { AskPanel } from './ask/AskPanel';
import { IngestPanel } from './ingest/IngestPanel';
import { EvaluateView } from './eval/EvaluateView';
import { evalModelName } from './eval/eval-model';
import { useEvaluation } from './eval/useEvaluation';
import { DropOverlay } from './ingest/DropOverlay';
import { NoticeStack } from './notices/Notice';
import { PanelBoundary } from './PanelBoundary';
import { useNotices } from './state/useNotices';
import { useDatabase } from './state/useDatabase';
import { useSettings } from './state/useSettings';
import { useLibrary } from './state/useLibrary';
import { useDocuments } from './state/useDocuments';
import { useBuild } from './state/useBuild';
import { useOpenTree } from './state/useOpenTree';
import { defaultRetrievalSettings, queryBlocker, questionModelOf, useAsk } from './state/useAsk';
import { modelToWarm, useBuildWorkerWarmup, useModelWarmup } from './state/useModelWarmup';
import { useLibraryActions } from './state/useLibraryActions';
import { useConversation, useConversationPanel } from './state/useConversation';
import { useModeSelections } from './state/useModeSelections';
import { useTheme } from './state/useTheme';
import { useTreeOverview } from './state/useTreeOverview';
import { useViewTabs, VIEW_LABELS, type View } from './state/useViewTabs';
import { useTreeBound } from './state/useTreeBound';
import { useTreeDeletions } from './state/useTreeDeletions';
import { useServiceWorker, type Busy } from './state/useServiceWorker';
import { useConnectivity } from './state/useConnectivity';
import { useStorageOverview } from './state/useStorageOverview';
import { useInstallPrompt } from './state/useInstallPrompt';
import { StorageSection } from './settings/StorageSection';
import { answerModelOf, summarizerLine } from './settings/app-settings';
import { embeddingModelLabel } from './library/model-label';
import { embeddingChoiceOf, titleFor } from './state/request';
import type { RetrievalSettings } from './state/types';
import { getOriginal } from '../storage';
import './app.css';

// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function App() {
  const { notices, notify, dismiss } = useNotices();
  const { db, error: dbError } = useDatabase(notify);
  const {
    settings,
    ready: settingsReady,
    save: saveSettings,
    saveOrReport: saveSettingsOrReport,
  } = useSettings(db, dbError !== undefined, notify);
  useTheme(settings.theme);
  const library = useLibrary(db, notify);
  const docs = useDocuments(db, notify);
  const [openId, setOpenId] = useState<string>();
  const [version, setVersion] = useState(0);
  const onBuilt = useCallback(
    (treeId: string) => {
      setOpenId(treeId);
      setVersion((v) => v + 1);
      void library.refresh();
    },
    [library],
  );
  const build = useBuild(db, notify, { onBuilt, onTaken: docs.take });
  const open = useOpenTree(db, openId, version);
  const tree = open.tree;
  const overview = useTreeOverview(tree, open.documents);
  const { maxLayer, stats, topics, topicsByLayer, rootSummary, leaves, primaryParent } = overview;
  const { placeOfNode, sourceOf, documentText } = overview;
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
  const evaluation = useEvaluation(db, tree ? openId : undefined, tree, open.record, settings, notify);
  const answerModel = answerModelOf(settings);
  const [retrieval, setRetrieval] = useState<RetrievalSettings>(() => defaultRetrievalSettings(0));
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Node ids and citations belong to the open tree: another tree reads them as unset (useTreeBound.ts).
  const [inspected, setInspected] = useTreeBound<number | undefined>(tree, undefined);
  const { view, setView, onTabKey } = useViewTabs();
  const [scrollLeaf, setScrollLeaf] = useTreeBound<number | undefined>(tree, undefined);
  /** The citation shown in the Document tab, with where "Back to the answer" returns. */
  const [citation, setCitation] = useTreeBound<
    (ActiveCitation & { back: ReturnPoint; view: View }) | undefined
  >(tree, undefined);
  const citationKey = useRef(0);
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
  const actions = useLibraryActions(db, notify, library.refresh, {
    onOpen: setOpenId,
    onDeleted: deletions.closeDeleted,
    onDraft: async (draft) => {
      await saveSettingsOrReport({ ...settings, params: { ...settings.params, ...draft.params } });
      for (const d of draft.documents) docs.addPaste(d.text, d.name ?? 'Document');
    },
  });

  // A new tree starts with the paper's retrieval settings for its height.
  useEffect(() => {
    setRetrieval(defaultRetrievalSettings(maxLayer));
    ask.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when another tree opens
  }, [tree]);

  const { selections, highlights, underSelected } = useModeSelections(tree, ask.results);

  const building = build.progress?.status === 'running' || build.progress?.status === 'cancelling';
  // Builds take the stored settings: none starts on the defaults shown before they are read.
  const canBuild = docs.ready.length > 0 && !docs.reading && !building && !!db && settingsReady;
  // A build in another tab counts too: the new version takes over every tab, and may upgrade the storage under it.
  const busy: Busy | undefined =
    building || library.running.length > 0
      ? 'build'
      : ask.busy
        ? 'answer'
        : evaluation.activity
          ? 'evaluation'
          : undefined;
  useServiceWorker({
    notify,
    busy,
    pristine: !build.progress && docs.pending.length === 0 && !openId && !settingsOpen,
  });
  useConnectivity(settings, notify, dismiss);
  const install = useInstallPrompt();
  const storage = useStorageOverview(settingsOpen, library.trees, notify);
  // Never the default model of settings not yet read: the user's own choice is warmed.
  useModelWarmup(
    settingsReady
      ? modelToWarm({
          building,
          documentsWaiting: docs.ready.length > 0,
          build: embeddingChoiceOf(settings),
          question: tree ? questionModelOf(tree, open.record, settings) : undefined,
        })
      : undefined,
  );
  useBuildWorkerWarmup(docs.ready.length > 0 && !building);
  const startBuild = () => {
    actions.keepAtBuild();
    void build.start(docs.ready, settings, titleFor(docs.ready.map((d) => d.document)));
  };
  const addToOpenTree = () => {
    if (!openId || !open.record) return;
    void actions.rebuildWith(openId, docs.ready, build.startRequest);
  };

  const progressView = build.progress && (
    <ProgressView
      progress={build.progress}
      onCancel={() => void build.cancel()}
      onResume={() => void build.resume(build.progress!.treeId, build.progress!.title)}
      onBuildAgain={() => build.buildAgain(build.progress!.treeId)}
      onKeepData={actions.persist}
    />
  );

  const blocker = dbError ? `Storage is unavailable: ${dbError}` : queryBlocker(tree, settings);
  const unanswered = (e: unknown) =>
    deletions.handledGone(e) || actions.report('The question could not be answered', e);
  const onAsk = (question: string, followUp: boolean) =>
    void conversation.submit(question, retrieval, 'ask', followUp).catch(unanswered);
  const onCompare = (question: string, followUp: boolean) =>
    void conversation.submit(question, retrieval, 'compare', followUp).catch(unanswered);
  const onConfirmSearch = (search: string) => void conversation.confirm(search).catch(unanswered);
  const conversationProps = useConversationPanel(conversation, ask.results, onConfirmSearch);
  // Stable while the tree is, so the memoised lists that take it (the conversation's turns) are not rendered
  // again for it.
  const openNode = useCallback((id: number) => setInspected(id), [setInspected]);
  /** Citation [n]: its exact passage in the Document tab (on its PDF page when kept), and its node opened. */
  const openCitation = useCallback(
    (n: number, nodeId: number, from: HTMLElement, read?: string) => {
      if (!tree?.nodes[nodeId]) return;
      const target = citationTarget(tree, n, nodeId, (doc) => documentText(doc), read);
      citationKey.current += 1;
      setCitation({ target, key: citationKey.current, back: returnPointOf(from), view });
      setInspected(nodeId);
      setView('document');
    },
    [tree, view, documentText, setCitation, setInspected, setView],
  );
  const backToAnswer = () => {
    if (!citation) return;
    setView(citation.view);
    setCitation(undefined);
    // After the tab switch has rendered, so the restored scroll positions hold.
    requestAnimationFrame(() => returnTo(citation.back));
  };
  const loadOriginal = useCallback(
    (key: string) => {
      const { documentId, sha256 } = parseOriginalKey(key);
      return db ? getOriginal(db, documentId, sha256) : Promise.resolve(undefined);
    },
    [db],
  );

  return (
    <div className="app">
      <DropOverlay onFiles={docs.addFiles} disabled={building} />
      <header className="app-header">
        <div className="brand">
          <svg aria-hidden="true" viewBox="0 0 32 32" width="28" height="28">
            <rect width="32" height="32" rx="6" fill="var(--accent, #1f4e79)" />
            <path d="M16 5 L27 25 H5 Z" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" />
            <circle cx="16" cy="5" r="2.5" fill="#f5b942" />
          </svg>
          <h1>Aerie</h1>
          <span className="tagline">RAPTOR tree retrieval, entirely in your browser</span>
        </div>
        <div className="header-actions">
          {tree && (
            <span className="open-title" title={tree.title}>
              {tree.title}
            </span>
          )}
          <label className="theme-picker">
            <span>Theme</span>
            <select
              value={settings.theme}
              disabled={!settingsReady}
              onChange={(e) =>
                void saveSettingsOrReport({ ...settings, theme: e.target.value as typeof settings.theme })
              }
            >
              <option value="system">System</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          {install && (
            <button type="button" onClick={install}>
              Install Aerie
            </button>
          )}
          {/* Clicked before the stored settings are read, the dialog opens once they are (never on defaults). */}
          <button
            type="button"
            aria-busy={settingsOpen && !settingsReady}
            onClick={() => setSettingsOpen(true)}
          >
            Settings
          </button>
        </div>
      </header>

      <PanelBoundary name="notices">
        <NoticeStack notices={notices} onDismiss={dismiss} />
      </PanelBoundary>

      <main className="workspace">
        <aside className="left-column" aria-label="Documents and library">
          <PanelBoundary name="list of documents">
            <IngestPanel
              documents={docs.pending}
              onAddFiles={docs.addFiles}
              onPaste={docs.addPaste}
              onTrySample={() => void docs.addSample()}
              onRemove={docs.remove}
              disabled={building}
            />
          </PanelBoundary>
          <div className="build-actions">
            <button type="button" className="primary" disabled={!canBuild} onClick={startBuild}>
              Build tree
            </button>
            {tree && open.record?.request && docs.ready.length > 0 && (
              <button type="button" disabled={!canBuild} onClick={addToOpenTree}>
                Add to “{tree.title}”
              </button>
            )}
            <p className="build-hint">
              {summarizerLine(settings)} Embeddings: {embeddingModelLabel(settings.embedding.model)}.
            </p>
          </div>
          {build.progress && tree && <PanelBoundary name="build progress">{progressView}</PanelBoundary>}
          <PanelBoundary name="library">
            <LibraryPanel
              trees={library.trees}
              activeTreeId={openId}
              runningTreeIds={library.running}
              storage={library.storage}
              onOpen={setOpenId}
              onRename={actions.rename}
              onDelete={actions.remove}
              onExport={actions.exportTree}
              onResume={(id) =>
                void build.resume(id, library.trees.find((t) => t.id === id)?.title ?? 'Tree')
              }
              onDuplicate={actions.duplicate}
              onImport={actions.importFile}
              onRequestPersistence={actions.persist}
            />
          </PanelBoundary>
        </aside>

        <section className="center-column" aria-label="Tree">
          {tree && stats ? (
            <>
              {rootSummary && (
                <p className="root-line" title={topics.length > 0 ? topics.join(' · ') : rootSummary}>
                  <strong>Root layer:</strong> {topics.length > 0 ? topics.join(' · ') : rootSummary}
                </p>
              )}
              <div className="view-tabs" role="tablist" aria-label="View" onKeyDown={onTabKey}>
                {(Object.keys(VIEW_LABELS) as View[]).map((v) => (
                  <button
                    key={v}
                    type="button"
                    role="tab"
                    id={`tab-${v}`}
                    aria-selected={view === v}
                    aria-controls={`panel-${v}`}
                    tabIndex={view === v ? 0 : -1}
                    onClick={() => setView(v)}
                  >
                    {VIEW_LABELS[v]}
                  </button>
                ))}
              </div>
              <div id="panel-tree" role="tabpanel" aria-labelledby="tab-tree" hidden={view !== 'tree'}>
                <PanelBoundary name="tree view" resetKey={tree}>
                  <TreeView
                    tree={tree}
                    selections={selections}
                    onOpenNode={openNode}
                    focusNodeId={inspected}
                  />
                  {Object.keys(selections).length > 0 && (
                    <>
                      <ReachStrip tree={tree} selections={selections} />
                      <SelectionHistogram tree={tree} selections={selections} />
                    </>
                  )}
                </PanelBoundary>
              </div>
              <div
                id="panel-document"
                role="tabpanel"
                aria-labelledby="tab-document"
                hidden={view !== 'document'}
              >
                <PanelBoundary name="document view" resetKey={tree}>
                  {open.documents.some((d) => d.text) ? (
                    <DocumentPanel
                      documents={open.documents.filter((d) => d.text)}
                      leaves={leaves}
                      highlights={highlights}
                      underSelected={underSelected}
                      scrollToLeafId={scrollLeaf}
                      onOpenNode={openNode}
                      citation={citation}
                      onBack={backToAnswer}
                      loadOriginal={loadOriginal}
                      visible={view === 'document'}
                    />
                  ) : (
                    <p className="empty">This tree was imported without its documents’ text.</p>
                  )}
                </PanelBoundary>
              </div>
              <div id="panel-eval" role="tabpanel" aria-labelledby="tab-eval" hidden={view !== 'eval'}>
                {view === 'eval' && (
                  <PanelBoundary name="Evaluate view" resetKey={tree}>
                    <EvaluateView
                      evaluation={evaluation}
                      tree={tree}
                      answerModel={answerModel ? evalModelName(answerModel) : undefined}
                      blocker={blocker}
                      onOpenNode={openNode}
                    />
                  </PanelBoundary>
                )}
              </div>
              <div id="panel-stats" role="tabpanel" aria-labelledby="tab-stats" hidden={view !== 'stats'}>
                <PanelBoundary name="statistics" resetKey={tree}>
                  <TreeStatsPanel
                    stats={stats}
                    rootSummary={rootSummary}
                    rootTerms={topics}
                    layerTopics={topicsByLayer}
                    summarizer={tree.summarizer}
                    embeddingModel={tree.embedding.model}
                    summaryCuts={open.record?.summarizer.cuts}
                    devices={open.record?.devices}
                  />
                </PanelBoundary>
              </div>
            </>
          ) : (
            <div className="welcome">
              {build.progress && !open.loading ? (
                <div className="center-progress">
                  <PanelBoundary name="build progress">{progressView}</PanelBoundary>
                  {building && (
                    <p className="building-note">
                      You can keep using the page while the tree grows. Closing the tab pauses the build; it
                      resumes from the library without repeating finished work.
                    </p>
                  )}
                </div>
              ) : open.loading ? (
                <p>Opening the tree…</p>
              ) : open.error ? (
                <p role="alert">{open.error}</p>
              ) : (
                <>
                  <h2>Build a RAPTOR tree from your documents</h2>
                  <ol>
                    <li>
                      Drop a document anywhere on this page, or use “Add documents” (or “Try the sample”).
                    </li>
                    <li>Press “Build tree”. Everything runs in this browser; nothing is uploaded.</li>
                    <li>
                      Ask questions: compare collapsed-tree retrieval, tree traversal and plain leaf search.
                    </li>
                  </ol>
                  <p>
                    For LLM summaries and answers, set an OpenAI-compatible, Anthropic, Ollama or LM Studio
                    endpoint in Settings. Without one, Aerie summarises extractively and shows the retrieved
                    passages.
                  </p>
                </>
              )}
            </div>
          )}
        </section>

        <aside className="right-column" aria-label="Ask panel">
          <PanelBoundary name="Ask panel" resetKey={tree} keepWhenWorking>
            <AskPanel
              disabledReason={blocker}
              settings={retrieval}
              maxLayer={maxLayer}
              onSettingsChange={setRetrieval}
              busy={ask.busy || conversation.pending?.status === 'rewriting'}
              onAsk={onAsk}
              onCompare={onCompare}
              onStop={ask.stop}
              results={ask.results}
              onOpenNode={openNode}
              onOpenCitation={openCitation}
              sourceOf={sourceOf}
              hasAnswerModel={!!answerModel}
              activeNodeId={inspected}
              conversation={tree && db ? conversationProps : undefined}
            />
          </PanelBoundary>
          {tree && inspected !== undefined && tree.nodes[inspected] && (
            <PanelBoundary name="node inspector" resetKey={tree}>
              <div className="inspector-wrap">
                <button
                  type="button"
                  className="find-similar"
                  onClick={() =>
                    void ask
                      .similarTo(inspected, retrieval)
                      .catch((e: unknown) => actions.report('Retrieval failed', e))
                  }
                >
                  Find similar to node {inspected}
                </button>
                <NodeInspector
                  tree={tree}
                  nodeId={inspected}
                  primaryParentOf={(id) => {
                    const p = primaryParent[id];
                    return p >= 0 ? p : undefined;
                  }}
                  documentText={documentText}
                  selections={selections}
                  onOpenNode={openNode}
                  onShowInDocument={(leafId) => {
                    setView('document');
                    setScrollLeaf(leafId);
                  }}
                  onClose={() => setInspected(undefined)}
                />
              </div>
            </PanelBoundary>
          )}
        </aside>
      </main>

      <PanelBoundary name="Settings dialog">
        <SettingsDialog
          open={settingsOpen && settingsReady}
          settings={settings}
          onSave={saveSettings}
          onClose={() => setSettingsOpen(false)}
          testConnection={actions.testConnection}
          storage={
            <StorageSection
              overview={storage.overview}
              onKeep={() => void actions.persist().then(storage.refresh)}
              onDeleteModel={storage.deleteModel}
            />
          }
        />
      </PanelBoundary>
    </div>
  );
}
