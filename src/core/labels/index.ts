/**
 * The labels room: the short names of tree nodes (distinctive terms of a node against its siblings), pure and
 * deterministic.
 */
export * from './labels';
