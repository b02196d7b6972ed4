/** transformers.js's loading events as Aerie's per-file download progress (see ModelLoadProgress). */
import type { ProgressInfo } from '@huggingface/transformers';

/** Download progress of one model file, in bytes. */
export interface ModelLoadProgress {
  file: string;
  loaded: number;
  total: number;
  status: 'initiate' | 'download' | 'progress' | 'done';
}

const FILE_STATUSES = new Set(['initiate', 'download', 'progress', 'done']);

/** The per-file event in `info`, or undefined for events about no single file ('ready', 'progress_total'). */
export function fileProgress(info: ProgressInfo): ModelLoadProgress | undefined {
  if (!('file' in info) || !FILE_STATUSES.has(info.status)) return undefined;
  return {
    file: info.file,
    loaded: 'loaded' in info ? info.loaded : 0,
    total: 'total' in info ? info.total : 0,
    status: info.status as ModelLoadProgress['status'],
  };
}

/**
 * The callers waiting on a service's model load, each hearing its per-file progress: a load that several calls
 * join reports to all of them.
 */
export class LoadListeners {
  private readonly listeners = new Set<(p: ModelLoadProgress) => void>();

  /** Sends `p` to every listener (pass it as the loader's `onProgress`). */
  readonly emit = (p: ModelLoadProgress): void => this.listeners.forEach((l) => l(p));

  /** Runs `work` with `listener` (if any) hearing every load's progress until it settles. */
  async during<T>(
    listener: ((p: ModelLoadProgress) => void) | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    if (listener) this.listeners.add(listener);
    try {
      return await work();
    } finally {
      if (listener) this.listeners.delete(listener);
    }
  }
}
