/**
 * "Search by: meaning / keywords / both", "Rerank" and "Skip repeated sentences": how a question's candidates
 * are ranked and what the context pays for. Presentational.
 */
import { memo, useId } from 'react';
import { SEARCH_MODES, type SearchMode } from '../../core/search';
import type { RetrievalSettings } from '../state/types';
import './ask.css';
import './conversation.css';

/** What the panel calls each search setting, and a line on what it does. */
export const SEARCH_LABELS: Readonly<Record<SearchMode, { label: string; hint: string }>> = Object.freeze({
  meaning: { label: 'Meaning', hint: 'Embeddings only: the paper’s and the official code’s ranking.' },
  keywords: { label: 'Keywords', hint: 'BM25 over every node’s words: names, places, rare words.' },
  both: { label: 'Both', hint: 'Meaning and keywords fused (reciprocal rank fusion).' },
});

/** Props of `SearchControls`. */
export interface SearchControlsProps {
  settings: RetrievalSettings;
  onChange(next: RetrievalSettings): void;
}

/** The search settings; see the module comment. */
export const SearchControls = memo(function SearchControls({ settings, onChange }: SearchControlsProps) {
  const id = useId();
  return (
    <div className="ask-search">
      <fieldset className="ask-search-by" role="radiogroup" aria-labelledby={`${id}-legend`}>
        <legend className="ask-label" id={`${id}-legend`}>
          Search by
        </legend>
        <div className="ask-mode-options">
          {SEARCH_MODES.map((search) => (
            <label key={search} className="ask-mode ask-search-option" title={SEARCH_LABELS[search].hint}>
              <input
                type="radio"
                name={`${id}-search`}
                value={search}
                checked={settings.search === search}
                onChange={() => onChange({ ...settings, search })}
              />
              {SEARCH_LABELS[search].label}
            </label>
          ))}
        </div>
        <p className="ask-option-hint">{SEARCH_LABELS[settings.search].hint}</p>
      </fieldset>
      <label className="ask-check">
        <input
          type="checkbox"
          checked={settings.rerank}
          onChange={(e) => onChange({ ...settings, rerank: e.target.checked })}
        />
        Rerank the best passages with a cross-encoder
      </label>
      <label className="ask-check">
        <input
          type="checkbox"
          checked={settings.distinct}
          onChange={(e) => onChange({ ...settings, distinct: e.target.checked })}
        />
        Skip sentences already in the context
      </label>
    </div>
  );
});
