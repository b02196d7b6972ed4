/**
 * The model-service room: the skeleton the embed service (its embedder and reranker) and the generate service
 * share. A slot loads its model once and moves it off WebGPU by the one rule (model-slot); calls are tracked by
 * request id so a client can cancel them (requests); per-file load progress reaches every caller waiting on a
 * load (`LoadListeners`, in the files room). Each service says how it differs in one policy object
 * (`LoadPolicy`, `CancelPolicy`) and keeps only its own work. No model package: the room builds on device and
 * files only.
 */
export * from './model-slot';
export * from './requests';
