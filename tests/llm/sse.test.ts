import { describe, expect, it } from 'vitest';
import { randomInt, seededRandom, type RandomFn } from '../../src/core/random';
import { readSseEvents, SseParser, type SseEvent } from '../../src/llm';

function parseAll(chunks: string[]): SseEvent[] {
  const parser = new SseParser();
  return [...chunks.flatMap((c) => parser.push(c)), ...parser.end()];
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const e of readSseEvents(stream)) events.push(e);
  return events;
}

/** Cuts `length` items into pieces at random positions (empty pieces included). */
function cuts(random: RandomFn, length: number): number[] {
  const points = [0, length];
  const n = randomInt(random, 12);
  for (let i = 0; i < n; i++) points.push(randomInt(random, length + 1));
  return points.sort((a, b) => a - b);
}

const ALPHABET = ['a', 'b', ' ', ':', '{', '"', 'é', '漢', '🙂', 'data', '[1]', 'x'];

/** A random event stream in SSE text and the events a correct parser must produce from it. */
function randomStream(random: RandomFn): { text: string; expected: SseEvent[] } {
  const expected: SseEvent[] = [];
  let text = random() < 0.2 ? '\ufeff' : '';
  let previousEnding = '';
  const ending = () => {
    // A lone CR followed by an LF would be one CRLF line break, so never choose LF right after CR.
    const options = previousEnding === '\r' ? ['\r\n', '\r'] : ['\n', '\r\n', '\r'];
    previousEnding = options[randomInt(random, options.length)];
    return previousEnding;
  };
  const word = () =>
    Array.from({ length: randomInt(random, 5) }, () => ALPHABET[randomInt(random, ALPHABET.length)]).join('');
  let lastId: string | undefined;
  const count = randomInt(random, 6);
  for (let e = 0; e < count; e++) {
    if (random() < 0.3) text += `: comment ${word()}${ending()}`;
    const name = random() < 0.5 ? ['delta', 'message_stop', 'error'][randomInt(random, 3)] : undefined;
    if (name) text += `event: ${name}${ending()}`;
    if (random() < 0.2) {
      lastId = `id${randomInt(random, 100)}`;
      text += `id: ${lastId}${ending()}`;
    }
    if (random() < 0.1) text += `unknownfield: ignored${ending()}`;
    const lines = Array.from({ length: 1 + randomInt(random, 3) }, word);
    for (const line of lines) {
      // "data:" + value only when the value does not start with a space (one leading space is dropped).
      text += (line.startsWith(' ') || random() < 0.5 ? `data: ${line}` : `data:${line}`) + ending();
    }
    const event: SseEvent = { event: name ?? 'message', data: lines.join('\n') };
    if (lastId !== undefined) event.id = lastId;
    expected.push(event);
    const last = e === count - 1;
    // The last event may end without its blank line, or even without its final line break.
    if (!last || random() < 0.6) text += ending();
    else if (random() < 0.5) text = text.replace(/(\r\n|\r|\n)$/, '');
  }
  return { text, expected };
}

describe('SseParser', () => {
  it('joins data lines, names events, drops comments and unknown fields', () => {
    const text = ': hello\n\nevent: ping\ndata: {"a":1}\n\ndata: line one\ndata:line two\nfoo: bar\n\n';
    expect(parseAll([text])).toEqual([
      { event: 'ping', data: '{"a":1}' },
      { event: 'message', data: 'line one\nline two' },
    ]);
  });

  it('does not dispatch an event without data, but does dispatch an empty data line', () => {
    expect(parseAll(['event: x\n\n'])).toEqual([]);
    expect(parseAll(['data:\n\n'])).toEqual([{ event: 'message', data: '' }]);
    expect(parseAll(['data\n\n'])).toEqual([{ event: 'message', data: '' }]);
  });

  it('treats a CRLF split across two chunks as one line break', () => {
    // Read as two breaks, the LF would end the event after "a".
    expect(parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([
      { event: 'message', data: 'a\nb' },
    ]);
  });

  it('delivers the last event when the stream ends without a newline', () => {
    expect(parseAll(['data: [DO', 'NE]'])).toEqual([{ event: 'message', data: '[DONE]' }]);
  });

  it('strips a byte-order mark, keeps the last id and reads retry', () => {
    expect(parseAll(['\ufeffid: 7\nretry: 1500\ndata: x\n\ndata: y\n\n'])).toEqual([
      { event: 'message', data: 'x', id: '7', retry: 1500 },
      { event: 'message', data: 'y', id: '7' },
    ]);
  });

  it('gives the same events however the text is split (property, 400 seeded cases)', () => {
    const random = seededRandom(20240101);
    for (let trial = 0; trial < 400; trial++) {
      const { text, expected } = randomStream(random);
      const points = cuts(random, text.length);
      const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
      expect(parseAll(chunks), JSON.stringify(text)).toEqual(expected);
    }
  });

  it('decodes bytes split anywhere, inside multi-byte characters too (property, 200 seeded cases)', async () => {
    const random = seededRandom(7);
    const encoder = new TextEncoder();
    for (let trial = 0; trial < 200; trial++) {
      const { text, expected } = randomStream(random);
      const bytes = encoder.encode(text);
      const points = cuts(random, bytes.length);
      const chunks = points.slice(1).map((end, i) => bytes.slice(points[i], end));
      expect(await collect(streamOf(chunks)), JSON.stringify(text)).toEqual(expected);
    }
  });
});
