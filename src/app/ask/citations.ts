/**
 * Splits an answer's text into plain text and citations, so each "[n]" can become a button that opens the
 * node of passage n. Pure and tested in Node. The grammar is the one `parseCitations` in src/llm/answer.ts
 * counts — [2], [1][3], [1, 3], [2-4], [Passage 2], [1; 5], [1 and 2] — so every number the answer's
 * `citations` lists is a button here, and nothing else is: numbers outside 1 … passage count ("[99]" when five
 * passages were sent, "[0]") and brackets without numbers ("[a]") stay text.
 *
 * The segments are a lossless partition of the text (their `text` joined is the input) and each carries its
 * offset, which React uses as its key: while an answer streams, the text only grows, so the segments of what
 * was already there keep their keys, and a citation split across two chunks ("[" then "2]") appears as soon
 * as its closing bracket arrives because the whole text is re-split on every render.
 */

/** A run of the answer shown as text. */
export interface TextSegment {
  kind: 'text';
  text: string;
  /** Offset of `text` in the answer (UTF-16 code units). */
  start: number;
}

/** One cited passage number, as written in the answer. */
export interface CitationSegment {
  kind: 'citation';
  /** The passage number, 1-based as the answer writes it. */
  n: number;
  /** The node the passage came from. */
  nodeId: number;
  /** The digits as written (e.g. "2"); the brackets and separators around them are text segments. */
  text: string;
  /** Offset of `text` in the answer (UTF-16 code units). */
  start: number;
}

/** A piece of an answer: text, or a citation of one passage. */
export type AnswerSegment = TextSegment | CitationSegment;

/** A bracket holding citation numbers (the grammar of src/llm/answer.ts). Group 1 is the list of numbers. */
const CITATION_GROUP = /\[\s*(?:(?:passages?|sources?)\s*)?(\d+(?:\s*(?:[,;–-]|and)\s*\d+)*)\s*\]/gi;
/** One number or range inside a group: group 1 the first number, group 2 a range's last number. */
const CITATION_PART = /(\d+)(?:\s*[–-]\s*(\d+))?/g;
/** Where the range's last number starts inside a part such as "2 – 4". */
const RANGE_END = /\d+$/;

/**
 * The node id of each passage number, from the passages in context order (`passages[n - 1]` is passage n) and
 * the answer's own `citations` list, which wins where both name a number.
 */
export function citationNodeIds(
  passages: readonly { id: number }[],
  citations: readonly { n: number; nodeId: number }[] = [],
): number[] {
  const ids = passages.map((p) => p.id);
  for (const { n, nodeId } of citations) {
    if (Number.isInteger(n) && n >= 1 && n <= ids.length) ids[n - 1] = nodeId;
  }
  return ids;
}

/**
 * Splits `text` into text and citation segments. `nodeIds[n - 1]` is the node of passage n; a number without
 * a node id (beyond the passages, or 0) stays text. A range such as "[2-4]" makes buttons of its two ends,
 * "2" and "4", keeping the dash between them as text, so the text reads exactly as the model wrote it.
 */
export function splitCitations(text: string, nodeIds: readonly number[]): AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  let cursor = 0;
  const pushText = (end: number) => {
    if (end <= cursor) return;
    const last = segments[segments.length - 1];
    if (last !== undefined && last.kind === 'text') last.text += text.slice(cursor, end);
    else segments.push({ kind: 'text', text: text.slice(cursor, end), start: cursor });
    cursor = end;
  };
  const pushNumber = (digits: string, start: number) => {
    const n = Number(digits);
    const nodeId = n >= 1 ? nodeIds[n - 1] : undefined;
    if (nodeId === undefined) return;
    pushText(start);
    segments.push({ kind: 'citation', n, nodeId, text: digits, start });
    cursor = start + digits.length;
  };

  for (const group of text.matchAll(CITATION_GROUP)) {
    // The list starts at the group's first digit: nothing before it ("[", spaces, "Passage") holds one.
    const listStart = group.index + group[0].search(/\d/);
    for (const part of group[1].matchAll(CITATION_PART)) {
      const partStart = listStart + part.index;
      pushNumber(part[1], partStart);
      if (part[2] !== undefined) {
        const endOffset = RANGE_END.exec(part[0])?.index ?? 0;
        pushNumber(part[2], partStart + endOffset);
      }
    }
  }
  pushText(text.length);
  return segments;
}

/** Citations kept on one line with the punctuation touching them, e.g. "[" 2 "][" 3 "]." */
export interface NowrapGroup {
  kind: 'nowrap';
  /** Offset of the group's first piece. */
  start: number;
  segments: AnswerSegment[];
}

/** What the answer view renders: text, or a group that must not wrap inside. */
export type AnswerPiece = AnswerSegment | NowrapGroup;

/** Punctuation touching a citation ("[", "][", "]."), at most a few characters so a group stays short. */
const TRAILING_GLUE = /[^\s\p{L}\p{N}]{1,4}$/u;
const LEADING_GLUE = /^[^\s\p{L}\p{N}]{1,4}/u;

/**
 * Groups each run of citations with the punctuation that touches it, so a line never breaks between "[" and
 * its number (a <button> is an atomic inline box, which browsers may wrap around). Lossless like the segments.
 */
export function nowrapCitations(segments: readonly AnswerSegment[]): AnswerPiece[] {
  const out: AnswerPiece[] = [];
  let group: AnswerSegment[] | null = null;
  const close = () => {
    if (group !== null && group.length > 0)
      out.push({ kind: 'nowrap', start: group[0].start, segments: group });
    group = null;
  };
  segments.forEach((segment, i) => {
    if (segment.kind === 'citation') {
      if (group === null) {
        group = [];
        const prev = out[out.length - 1];
        const glue = prev?.kind === 'text' ? TRAILING_GLUE.exec(prev.text)?.[0] : undefined;
        if (prev?.kind === 'text' && glue !== undefined) {
          prev.text = prev.text.slice(0, -glue.length);
          group.push({ kind: 'text', text: glue, start: prev.start + prev.text.length });
          if (prev.text === '') out.pop();
        }
      }
      group.push({ ...segment });
      return;
    }
    if (group === null) {
      out.push({ ...segment });
      return;
    }
    const next = segments[i + 1];
    if (next?.kind === 'citation' && /^[^\s]{1,4}$/u.test(segment.text)) {
      group.push({ ...segment });
      return;
    }
    const head = LEADING_GLUE.exec(segment.text)?.[0] ?? '';
    if (head !== '') group.push({ kind: 'text', text: head, start: segment.start });
    close();
    if (head.length < segment.text.length) {
      out.push({ kind: 'text', text: segment.text.slice(head.length), start: segment.start + head.length });
    }
  });
  close();
  return out;
}
