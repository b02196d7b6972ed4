/** A text with stretches of it marked (evidence quotes found in a retrieved passage), rendered as text. */
import type { TextSpan } from '../../core/eval';

/** Props of `MarkedText`. */
export interface MarkedTextProps {
  text: string;
  /** Sorted, non-overlapping stretches to mark. */
  spans: readonly TextSpan[];
}

/** The marked text; see the module comment. */
export function MarkedText({ text, spans }: MarkedTextProps) {
  const parts: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at) parts.push({ text: text.slice(at, span.start), marked: false });
    parts.push({ text: text.slice(span.start, span.end), marked: true });
    at = span.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return (
    <>
      {parts.map((p, i) =>
        p.marked ? (
          <mark key={i} className="eval-evidence">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
