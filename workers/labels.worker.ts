import '../src/rpc/errors';
import { expose } from 'comlink';
import { computeLabels } from '../src/core/labels';

// Topic labels of a tree saved before they existed, computed off the page's thread (src/client/labels.ts).
const api = { computeLabels };
export type LabelsWorkerApi = typeof api;
expose(api);
