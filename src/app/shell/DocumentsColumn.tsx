/** The left column: the documents waiting to be built, the build buttons, the build's progress and the library. */
import type { ReactNode } from 'react';
import type { RaptorTree } from '../../core/types';
import type { TreeRecord } from '../../storage';
import { IngestPanel } from '../ingest/IngestPanel';
import { LibraryPanel } from '../library/LibraryPanel';
import { embeddingModelLabel } from '../library/model-label';
import { PanelBoundary } from '../PanelBoundary';
import { summarizerLine, type AppSettings } from '../settings/app-settings';
import { titleFor } from '../state/request';
import type { useBuild } from '../state/useBuild';
import type { useDocuments } from '../state/useDocuments';
import type { useLibrary } from '../state/useLibrary';
import type { useLibraryActions } from '../state/useLibraryActions';

/** What the left column shows and drives. */
export interface DocumentsColumnProps {
  docs: ReturnType<typeof useDocuments>;
  build: ReturnType<typeof useBuild>;
  library: ReturnType<typeof useLibrary>;
  actions: ReturnType<typeof useLibraryActions>;
  settings: AppSettings;
  building: boolean;
  canBuild: boolean;
  /** The open tree, its id and its record, when one is open. */
  tree: RaptorTree | undefined;
  openId: string | undefined;
  record: TreeRecord | undefined;
  onOpen: (treeId: string) => void;
  /** The build's progress view, shown here while a tree is open. */
  progressView: ReactNode;
}

/** The left column. */
export function DocumentsColumn(props: DocumentsColumnProps) {
  const { docs, build, library, actions, settings, building, canBuild, tree, openId } = props;
  const startBuild = () => {
    actions.keepAtBuild();
    void build.start(docs.ready, settings, titleFor(docs.ready.map((d) => d.document)));
  };
  const addToOpenTree = () => {
    if (!openId || !props.record) return;
    void actions.rebuildWith(openId, docs.ready, build.startRequest);
  };
  return (
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
        {tree && props.record?.request && docs.ready.length > 0 && (
          <button type="button" disabled={!canBuild} onClick={addToOpenTree}>
            Add to “{tree.title}”
          </button>
        )}
        <p className="build-hint">
          {summarizerLine(settings)} Embeddings: {embeddingModelLabel(settings.embedding.model)}.
        </p>
      </div>
      {build.progress && tree && <PanelBoundary name="build progress">{props.progressView}</PanelBoundary>}
      <PanelBoundary name="library">
        <LibraryPanel
          trees={library.trees}
          activeTreeId={openId}
          runningTreeIds={library.running}
          storage={library.storage}
          onOpen={props.onOpen}
          onRename={actions.rename}
          onDelete={actions.remove}
          onExport={actions.exportTree}
          onResume={(id) => void build.resume(id, library.trees.find((t) => t.id === id)?.title ?? 'Tree')}
          onDuplicate={actions.duplicate}
          onImport={actions.importFile}
          onRequestPersistence={actions.persist}
        />
      </PanelBoundary>
    </aside>
  );
}
