/** What the Document tab shows: a document of the open tree and the citation opened in it. */
import type { OriginalInfo } from '../../storage';
import type { CitationTarget } from './citation-target';
import type { ViewedDocument } from './DocumentView';

/** A document of the open tree as the panel needs it. */
export interface PanelDocument extends ViewedDocument {
  pageStarts?: number[];
  /** PDFs: the stored text's id (its original's key) and whether the original is kept. */
  pdf?: { documentId?: string; original?: OriginalInfo };
}

/** A citation being shown; a new `key` opens it again (focus, first range). */
export interface ActiveCitation {
  target: CitationTarget;
  key: number;
}
