/**
 * The documents a tree will be built from: a drop zone with "Add documents" (a real, labelled file input
 * styled as a button), "Paste text" and "Try the sample", the supported types and limits, and the list of
 * added documents with their type, size, characters, reading status, warnings and a remove button. Document
 * names and error messages are rendered as text.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { MAX_FILE_BYTES } from '../../protocol/ingest-limits';
import { formatBytes, formatCount } from '../format';
import type { PendingDocument } from '../state/types';
import { PasteDialog } from './PasteDialog';
import './ingest.css';

/** Props of `IngestPanel`. */
export interface IngestPanelProps {
  documents: readonly PendingDocument[];
  onAddFiles(files: File[]): void;
  onPaste(text: string, name: string): void;
  onTrySample(): void;
  /** Remove the document with this `key`. */
  onRemove(key: string): void;
  /** Documents cannot be added or removed now (e.g. while a tree is being built). */
  disabled?: boolean;
}

/** What the file picker offers: the extensions and MIME types ingestion reads. */
export const ACCEPTED_FILES =
  '.txt,.md,.markdown,.html,.htm,.pdf,.docx,text/plain,text/markdown,text/html,application/pdf,' +
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** How the list names each document type. */
export const TYPE_LABELS: Readonly<Record<PendingDocument['type'], string>> = Object.freeze({
  txt: 'Text',
  md: 'Markdown',
  html: 'HTML',
  pdf: 'PDF',
  docx: 'Word',
  paste: 'Pasted',
});

/** The Documents panel; see the module comment. */
export function IngestPanel({
  documents,
  onAddFiles,
  onPaste,
  onTrySample,
  onRemove,
  disabled = false,
}: IngestPanelProps) {
  const ids = useId();
  const [pasting, setPasting] = useState(false);
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for each child crossed; count them so the highlight does not flicker.
  const depth = useRef(0);

  const isFileDrag = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const dropHandlers = {
    onDragEnter: (event: DragEvent) => {
      if (!isFileDrag(event)) return;
      depth.current++;
      setOver(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!isFileDrag(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!isFileDrag(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop: (event: DragEvent) => {
      if (!isFileDrag(event)) return;
      // Handled here: the page-wide DropOverlay sees defaultPrevented and leaves it alone.
      event.preventDefault();
      depth.current = 0;
      setOver(false);
      const files = Array.from(event.dataTransfer.files);
      if (!disabled && files.length > 0) onAddFiles(files);
    },
  };

  return (
    <section className="ingest-panel" aria-labelledby={`${ids}-heading`}>
      <h2 className="ingest-heading" id={`${ids}-heading`}>
        Documents
      </h2>
      <div className="ingest-drop" data-over={(over && !disabled) || undefined} {...dropHandlers}>
        <p className="ingest-drop-title">Drop documents here</p>
        <div className="ingest-buttons">
          <input
            id={`${ids}-files`}
            className="ingest-file-input"
            type="file"
            multiple
            accept={ACCEPTED_FILES}
            disabled={disabled}
            aria-describedby={`${ids}-help`}
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []);
              // Cleared so choosing the same file again (after removing it) fires change again.
              event.target.value = '';
              if (files.length > 0) onAddFiles(files);
            }}
          />
          <label className="ingest-button ingest-primary" htmlFor={`${ids}-files`}>
            Add documents
          </label>
          <button
            type="button"
            className="ingest-button"
            disabled={disabled}
            onClick={() => setPasting(true)}
          >
            Paste text
          </button>
          <button type="button" className="ingest-button" disabled={disabled} onClick={onTrySample}>
            Try the sample
          </button>
        </div>
        <p className="ingest-help" id={`${ids}-help`}>
          Text, Markdown, HTML, PDF and Word files (.txt .md .html .pdf .docx), up to{' '}
          {formatBytes(MAX_FILE_BYTES)} each. Files stay in this browser.
        </p>
      </div>
      {documents.length > 0 && (
        <ul className="ingest-list" aria-label="Added documents">
          {documents.map((doc) => (
            <DocumentItem key={doc.key} doc={doc} onRemove={onRemove} disabled={disabled} />
          ))}
        </ul>
      )}
      {pasting && (
        <PasteDialog
          onAdd={(text, name) => {
            setPasting(false);
            onPaste(text, name);
          }}
          onCancel={() => setPasting(false)}
        />
      )}
    </section>
  );
}

interface DocumentItemProps {
  doc: PendingDocument;
  onRemove(key: string): void;
  disabled: boolean;
}

function DocumentItem({ doc, onRemove, disabled }: DocumentItemProps) {
  const facts = [TYPE_LABELS[doc.type], formatBytes(doc.size)];
  if (doc.status === 'ready') facts.push(`${formatCount(doc.chars)} characters`);
  return (
    <li className="ingest-doc" data-status={doc.status} data-key={doc.key}>
      <div className="ingest-doc-row">
        <span className="ingest-doc-type" aria-hidden="true">
          {doc.type === 'paste' ? 'TXT' : doc.type.toUpperCase()}
        </span>
        <div className="ingest-doc-info">
          <p className="ingest-doc-name" title={doc.name}>
            {doc.name}
          </p>
          <p className="ingest-doc-facts">
            <DocumentStatus status={doc.status} />
            <span>{facts.join(' · ')}</span>
          </p>
        </div>
        <button
          type="button"
          className="ingest-button ingest-remove"
          aria-label={`Remove ${doc.name}`}
          disabled={disabled}
          onClick={() => onRemove(doc.key)}
        >
          Remove
        </button>
      </div>
      {doc.status === 'error' && (
        <p className="ingest-doc-error" role="alert">
          {doc.error ?? 'This document could not be read.'}
        </p>
      )}
      {doc.warnings.length > 0 && (
        <ul className="ingest-doc-warnings" aria-label={`Warnings about ${doc.name}`}>
          {doc.warnings.map((warning, i) => (
            <li key={i}>{warning}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function DocumentStatus({ status }: { status: PendingDocument['status'] }) {
  switch (status) {
    case 'reading':
      return (
        <span className="ingest-status" data-status="reading">
          <span className="ingest-spinner" aria-hidden="true" />
          Reading…
        </span>
      );
    case 'ready':
      return (
        <span className="ingest-status" data-status="ready">
          <span aria-hidden="true">✓</span> Ready
        </span>
      );
    default:
      return (
        <span className="ingest-status" data-status="error">
          <span aria-hidden="true">✕</span> Not read
        </span>
      );
  }
}
