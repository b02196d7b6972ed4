/**
 * Short names for the models a tree records, as the library and statistics show them.
 */
import { EMBEDDING_PRESETS, locateModel } from '../../models/presets';
import type { SummarizerInfo } from '../../core/types';

/**
 * A readable name for an embedding model string: the preset's label ("multi-qa-MiniLM-L6-cos-v1",
 * "Offline GloVe (built in)"), "<model> (endpoint)" for `openai:<model>`, else the id itself.
 */
export function embeddingModelLabel(id: string): string {
  const preset = EMBEDDING_PRESETS.find((p) => p.id === id);
  if (preset) return preset.label;
  const location = locateModel(id);
  if (location.kind === 'endpoint') return `${location.model} (endpoint)`;
  return id;
}

/** "extractive (no LLM)" or the LLM's model name ("LLM" when the tree did not record it). */
export function summarizerLabel(summarizer: SummarizerInfo): string {
  if (summarizer.kind === 'extractive') return 'extractive (no LLM)';
  return summarizer.model?.trim() || 'LLM';
}
