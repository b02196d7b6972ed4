/**
 * Drag-and-drop of files anywhere on the page: while files (not a text selection) are dragged over the
 * window, a full-page overlay says "Drop to add documents"; dropping hands the files over and stops the
 * browser from opening them in place of the app. A drop that an element below already handled (the
 * Documents panel's drop zone calls preventDefault) is left to it, so files are never added twice.
 */
import { useEffect, useRef, useState } from 'react';
import './ingest.css';

/** Props of `DropOverlay`. */
export interface DropOverlayProps {
  onFiles(files: File[]): void;
  /** Files cannot be added now: no overlay, and a drop is refused (but still never opens the file). */
  disabled?: boolean;
}

/** The data-transfer type of dragged files (a text selection carries text/plain and text/html instead). */
const FILES_TYPE = 'Files';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes(FILES_TYPE) ?? false;
}

/** The page-wide drop target; see the module comment. */
export function DropOverlay({ onFiles, disabled = false }: DropOverlayProps) {
  const [dragging, setDragging] = useState(false);
  // The window listeners live as long as the component; they read the latest props from here.
  const latest = useRef({ onFiles, disabled });
  useEffect(() => {
    latest.current = { onFiles, disabled };
  }, [onFiles, disabled]);

  useEffect(() => {
    // dragenter and dragleave fire for every element the pointer crosses; the overlay stays up until the
    // pointer has left as many elements as it entered, i.e. has left the window.
    let depth = 0;
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth++;
      if (!latest.current.disabled) setDragging(true);
    };
    const onOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      // Without this the drop event never fires and the browser opens the file.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = latest.current.disabled ? 'none' : 'copy';
    };
    const onLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = 0;
      setDragging(false);
      const handled = event.defaultPrevented;
      event.preventDefault();
      if (handled || latest.current.disabled) return;
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) latest.current.onFiles(files);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  if (!dragging || disabled) return null;
  return (
    <div className="drop-overlay">
      <div className="drop-overlay-box">
        <span className="drop-overlay-icon" aria-hidden="true">
          ⇣
        </span>
        Drop to add documents
      </div>
    </div>
  );
}
