/**
 * The clustering room: the paper's UMAP (global, then local) and Gaussian mixtures chosen by BIC, the k-NN graph
 * and k-means under them, their WebAssembly kernels (generated/), and the worker pool that spreads a layer's
 * clusters. Door of the room: `clusterNodes` and the pieces the app and benches tune.
 */
export * from './cluster';
export * from './cluster-pool';
export * from './gmm';
export * from './kmeans';
export * from './select-k';
export * from './umap';
export { exactCosineKnn, runKnnRowsTask, type KnnGraph, type KnnRowsTask, type KnnRowsResult } from './knn';
export { distinctPoints } from './same-points';
export { fuzzySimplicialSet, optimizeLayout, type LayoutSchedule } from './umap-layout';
