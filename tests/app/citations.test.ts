import { describe, expect, it } from 'vitest';
import { parseCitations } from '../../src/llm';
import {
  citationNodeIds,
  nowrapCitations,
  splitCitations,
  type AnswerPiece,
  type AnswerSegment,
} from '../../src/app/ask/citations';

/** Passage n comes from node 100 + n, so a wrong lookup shows up in the node id. */
const NODE_IDS = [101, 102, 103, 104, 105];

/** Segments in a compact form: text as itself, a citation as {n, nodeId}. */
function compact(segments: AnswerSegment[]): (string | { n: number; nodeId: number })[] {
  return segments.map((s) => (s.kind === 'text' ? s.text : { n: s.n, nodeId: s.nodeId }));
}

function joined(segments: AnswerSegment[]): string {
  return segments.map((s) => s.text).join('');
}

describe('splitCitations', () => {
  it('makes a single [n] a citation of passage n and keeps the brackets as text', () => {
    expect(compact(splitCitations('Cinderella lost a slipper [1].', NODE_IDS))).toEqual([
      'Cinderella lost a slipper [',
      { n: 1, nodeId: 101 },
      '].',
    ]);
  });

  it('splits adjacent groups [2][3]', () => {
    expect(compact(splitCitations('Both [2][3]', NODE_IDS))).toEqual([
      'Both [',
      { n: 2, nodeId: 102 },
      '][',
      { n: 3, nodeId: 103 },
      ']',
    ]);
  });

  it('splits lists [1, 2], [1; 5], [1 and 4] and [Passage 2] into one citation per number', () => {
    expect(compact(splitCitations('a [1, 2] b [1; 5] c [1 and 4] d [Passage 2]', NODE_IDS))).toEqual([
      'a [',
      { n: 1, nodeId: 101 },
      ', ',
      { n: 2, nodeId: 102 },
      '] b [',
      { n: 1, nodeId: 101 },
      '; ',
      { n: 5, nodeId: 105 },
      '] c [',
      { n: 1, nodeId: 101 },
      ' and ',
      { n: 4, nodeId: 104 },
      '] d [Passage ',
      { n: 2, nodeId: 102 },
      ']',
    ]);
  });

  it('makes both ends of a range citations and keeps the dash', () => {
    expect(compact(splitCitations('[2-4] and [3 – 5]', NODE_IDS))).toEqual([
      '[',
      { n: 2, nodeId: 102 },
      '-',
      { n: 4, nodeId: 104 },
      '] and [',
      { n: 3, nodeId: 103 },
      ' – ',
      { n: 5, nodeId: 105 },
      ']',
    ]);
  });

  it('leaves brackets that are not citations as text: [a], [99] beyond the passages, [0], [], [1.5]', () => {
    const text = 'See [a], [99], [0], [] and [1.5] or array[i].';
    expect(compact(splitCitations(text, NODE_IDS))).toEqual([text]);
  });

  it('cites the valid numbers of a group and leaves the invalid ones as text', () => {
    expect(compact(splitCitations('[1, 99]', NODE_IDS))).toEqual(['[', { n: 1, nodeId: 101 }, ', 99]']);
  });

  it('cites nothing when there are no passages', () => {
    expect(compact(splitCitations('Answer [1].', []))).toEqual(['Answer [1].']);
  });

  it('keeps markup and script in answers as plain text segments', () => {
    const text = '<img src=x onerror="alert(1)"> <script>alert(2)</script> [1]';
    const segments = splitCitations(text, NODE_IDS);
    expect(joined(segments)).toBe(text);
    expect(segments.filter((s) => s.kind === 'citation')).toHaveLength(1);
  });

  it('is a lossless partition with offsets: joining the segments gives the text back', () => {
    const text = 'One [1]. Two [2][3]. Three [1, 2]. Not [a] nor [99]. Range [2-4]. End [5]';
    const segments = splitCitations(text, NODE_IDS);
    expect(joined(segments)).toBe(text);
    for (const s of segments) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
    // Offsets are unique (React keys) and increasing.
    const starts = segments.map((s) => s.start);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(new Set(starts).size).toBe(starts.length);
  });

  it('finds the same passages as parseCitations for every text', () => {
    const texts = ['[1][3] x', '[2-4]', '[1, 99] [Sources 5]', '[0] [6] [a]', 'no citations', '[1 and 2; 3]'];
    for (const text of texts) {
      const cited = new Set(
        splitCitations(text, NODE_IDS).flatMap((s) => (s.kind === 'citation' ? [s.n - 1] : [])),
      );
      // A range's middle passages are cited by parseCitations but are not buttons of their own.
      const expected = parseCitations(text, NODE_IDS.length).filter((i) => !(text === '[2-4]' && i === 2));
      expect([...cited].sort()).toEqual([...expected].sort());
    }
  });

  it('joins a citation cut across streamed chunks once its closing bracket arrives', () => {
    const chunks = ['The prince searched the kingdom [', '2', '] and found her [3', '].'];
    let text = '';
    const citationsSeen: number[] = [];
    for (const chunk of chunks) {
      text += chunk;
      const segments = splitCitations(text, NODE_IDS);
      expect(joined(segments)).toBe(text);
      citationsSeen.push(segments.filter((s) => s.kind === 'citation').length);
    }
    expect(citationsSeen).toEqual([0, 0, 1, 2]);
  });

  it('keeps the offsets of earlier segments as the text grows, for every prefix', () => {
    const full = 'Ella [1] went to the ball [2][3], then home [1, 4].';
    const final = splitCitations(full, NODE_IDS);
    for (let end = 0; end <= full.length; end++) {
      const prefix = full.slice(0, end);
      const segments = splitCitations(prefix, NODE_IDS);
      expect(joined(segments)).toBe(prefix);
      // Every citation of a prefix is also a citation, at the same offset, in the full text.
      for (const s of segments.filter((x) => x.kind === 'citation')) {
        expect(final).toContainEqual(s);
      }
    }
  });
});

describe('citationNodeIds', () => {
  it('numbers the passages in context order, 1-based', () => {
    expect(citationNodeIds([{ id: 7 }, { id: 3 }, { id: 12 }])).toEqual([7, 3, 12]);
  });

  it('lets the answer’s own citation list override a passage number', () => {
    expect(citationNodeIds([{ id: 7 }, { id: 3 }], [{ n: 2, nodeId: 40 }])).toEqual([7, 40]);
  });

  it('ignores citations outside the passages', () => {
    expect(
      citationNodeIds(
        [{ id: 7 }],
        [
          { n: 0, nodeId: 1 },
          { n: 2, nodeId: 2 },
        ],
      ),
    ).toEqual([7]);
  });
});

/** Pieces in a compact form: a nowrap group as the texts of its segments, citations as "#n". */
function pieces(list: AnswerPiece[]): (string | string[])[] {
  const word = (s: AnswerSegment) => (s.kind === 'text' ? s.text : `#${s.n}`);
  return list.map((p) => (p.kind === 'nowrap' ? p.segments.map(word) : word(p)));
}

describe('nowrapCitations', () => {
  it('keeps each run of citations on one line with the punctuation touching it', () => {
    const text = 'She left a slipper [1][4]. It fits [2, 3]; see “x” [5].';
    expect(pieces(nowrapCitations(splitCitations(text, NODE_IDS)))).toEqual([
      'She left a slipper ',
      ['[', '#1', '][', '#4', '].'],
      ' It fits ',
      ['[', '#2', ','],
      ' ',
      ['#3', '];'],
      ' see “x” ',
      ['[', '#5', '].'],
    ]);
  });

  it('is lossless and keeps offsets, for every prefix of a streamed answer', () => {
    const full = 'Ella [1] went to the ball [2][3], then home [1, 4]. [99] is not one.';
    for (let end = 0; end <= full.length; end++) {
      const prefix = full.slice(0, end);
      const list = nowrapCitations(splitCitations(prefix, NODE_IDS));
      const flat = list.flatMap((p) => (p.kind === 'nowrap' ? p.segments : [p]));
      expect(flat.map((s) => s.text).join('')).toBe(prefix);
      for (const s of flat) expect(prefix.slice(s.start, s.start + s.text.length)).toBe(s.text);
      expect(new Set(list.map((p) => p.start)).size).toBe(list.length);
    }
  });

  it('does not change the segments it is given', () => {
    const segments = splitCitations('a [1] b', NODE_IDS);
    const copy = structuredClone(segments);
    nowrapCitations(segments);
    expect(segments).toEqual(copy);
  });
});
