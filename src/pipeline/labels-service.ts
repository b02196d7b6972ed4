/**
 * What the labels worker does: topic labels of a tree saved before labels existed, computed off the page's
 * thread (src/client/labels.ts asks; workers/labels.worker.ts exposes it).
 */
import { computeLabels } from '../core/labels';

/** The labels worker's service. */
export const labelsService = { computeLabels };
/** The labels worker's API as the page sees it. */
export type LabelsWorkerApi = typeof labelsService;
