/**
 * Short names for the models a tree records, as the library and statistics show them.
 */
import { EMBEDDING_PRESETS, locateModel } from '../../models/embed/embedding-presets';
import { parseBuiltinModelTag } from '../../models/generate/generator-presets';
import type { SummarizerInfo } from '../../core/types';
import { builtinModelName } from '../settings/app-settings';

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

/**
 * "extractive (no LLM)", the built-in model's name with "built-in model, q8", or the LLM's model name ("LLM"
 * when the tree did not record it). A built-in model that could not be loaded (`fallbackFrom`) is named too.
 */
export function summarizerLabel(summarizer: SummarizerInfo & { fallbackFrom?: string }): string {
  if (summarizer.kind === 'extractive') {
    if (!summarizer.fallbackFrom) return 'extractive (no LLM)';
    return `extractive (the built-in model ${builtinModelName(summarizer.fallbackFrom)} could not be downloaded)`;
  }
  const model = summarizer.model?.trim();
  const builtin = model ? parseBuiltinModelTag(model) : undefined;
  if (builtin) return `${builtinModelName(builtin.model)} (built-in model, ${builtin.dtype})`;
  return model || 'LLM';
}
