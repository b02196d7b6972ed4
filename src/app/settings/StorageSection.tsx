/**
 * Settings → "Storage and offline": how much of this browser's storage Aerie uses and whether the browser
 * keeps it, each tree's size, each model kept in this browser (where from, size, last use, Delete), Aerie's
 * offline copy and how many threads the models get here. Presentational: the caller reads the storage
 * (useStorageOverview) and acts.
 */
import { useId } from 'react';
import type { CachedModel } from '../../models/files';
import type { StorageOverview } from '../state/useStorageOverview';
import { formatBytes, formatDate, formatQuantity } from '../format';
import { embeddingModelLabel } from '../library/model-label';
import { builtinModelName } from './app-settings';
import { APP_VERSION } from '../version';
import './storage.css';

/** Props of `StorageSection`. */
export interface StorageSectionProps {
  overview: StorageOverview;
  /** Asks the browser to keep Aerie's data (navigator.storage.persist). */
  onKeep(): void;
  onDeleteModel(model: CachedModel): void;
}

function modelSource(model: CachedModel): string {
  return model.source === 'hub' ? 'downloaded from the model hub' : 'served by Aerie';
}

/** A model's name as Settings' pickers say it ("Offline GloVe (built in)"), else its id. */
function modelName(id: string): string {
  const embedding = embeddingModelLabel(id);
  return embedding !== id ? embedding : builtinModelName(id);
}

function threadsLine(report: NonNullable<StorageOverview['threads']>): string {
  const perWorker = `${formatQuantity(report.threads, 'thread')} in each embedding worker`;
  return report.crossOriginIsolated
    ? `This page is cross-origin isolated: a model may use all ${formatQuantity(report.cores, 'core')} ` +
        `here (ONNX Runtime: ${perWorker}).`
    : `This page is not cross-origin isolated, so each model runs on one thread (${perWorker}): the host ` +
        'sends no COOP/COEP headers, and Aerie’s offline copy, which adds them, is not in control yet. Reload ' +
        'once it is.';
}

function offlineLine(offline: StorageOverview['offline']): string {
  if (!offline)
    return (
      'Not in this browser (yet): it is saved in the background after the first visit, where the browser ' +
      'allows service workers.'
    );
  const size = `${formatBytes(offline.bytes)} in ${formatQuantity(offline.files, 'file')}`;
  return offline.ready
    ? `${size}: Aerie starts, opens your library, answers and builds with the offline model without a network.`
    : `Being saved in the background (${size} so far); until it is complete, Aerie needs the network to start.`;
}

/** The section; see the module comment. */
export function StorageSection({ overview, onKeep, onDeleteModel }: StorageSectionProps) {
  const id = useId();
  const { usage, persisted, trees, models, offline, threads } = overview;
  return (
    <fieldset className="settings-section storage-section">
      <legend>Storage and offline</legend>
      <div className="settings-field-wide storage-summary">
        <p>
          {usage
            ? `Aerie uses ${formatBytes(usage.usage)} of the ${formatBytes(usage.quota)} this browser allows it.`
            : 'This browser does not say how much storage Aerie uses.'}{' '}
          {persisted
            ? 'Kept on this device: the browser will not clear it to free space.'
            : 'The browser may clear it when space runs low.'}
        </p>
        {!persisted && (
          <button type="button" className="settings-button" onClick={onKeep}>
            Keep data on this device
          </button>
        )}
      </div>

      <section className="settings-field-wide storage-group" aria-labelledby={`${id}-trees`}>
        <h3 id={`${id}-trees`}>Trees ({trees.length})</h3>
        {trees.length === 0 ? (
          <p className="settings-note">No trees yet.</p>
        ) : (
          <ul className="storage-list">
            {trees.map((tree) => (
              <li key={tree.id} className="storage-row">
                <span className="storage-name">{tree.title}</span>
                <span className="storage-size">{formatBytes(tree.bytes)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="settings-field-wide storage-group" aria-labelledby={`${id}-models`}>
        <h3 id={`${id}-models`}>Models kept in this browser ({models.length})</h3>
        {models.length === 0 ? (
          <p className="settings-note">
            None yet: a model is kept here once a build or a question has used it.
          </p>
        ) : (
          <ul className="storage-list" aria-label="Models kept in this browser">
            {models.map((model) => {
              const name = modelName(model.id);
              return (
                <li key={model.id} className="storage-row storage-row-model">
                  <span className="storage-name">{name}</span>
                  <span className="storage-meta">
                    {formatBytes(model.bytes)} · {name !== model.id && `${model.id} · `}
                    {modelSource(model)} ·{' '}
                    {model.lastUsed !== undefined
                      ? `last used ${formatDate(model.lastUsed)}`
                      : 'not used since Aerie began noting it'}
                  </span>
                  <button
                    type="button"
                    className="settings-button storage-delete"
                    aria-label={`Delete ${model.id} (${formatBytes(model.bytes)})`}
                    onClick={() => onDeleteModel(model)}
                  >
                    Delete
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <p className="settings-note">
          A deleted model is downloaded (or read from Aerie) again the next time it is used.
        </p>
      </section>

      <section className="settings-field-wide storage-group" aria-labelledby={`${id}-offline`}>
        <h3 id={`${id}-offline`}>Offline copy of Aerie {APP_VERSION}</h3>
        <p className="settings-note">{offlineLine(offline)}</p>
        {threads && <p className="settings-note">{threadsLine(threads)}</p>}
      </section>
    </fieldset>
  );
}
