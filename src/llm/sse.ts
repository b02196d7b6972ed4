/**
 * A Server-Sent Events parser following the WHATWG HTML "event stream interpretation": lines end in CRLF, LF
 * or CR (a CRLF split across chunks counts once), `:` starts a comment, one space after the colon is dropped,
 * several `data:` lines join with "\n", a blank line dispatches. Unlike a browser's EventSource, the event
 * pending when the stream ends without a final blank line is delivered, since some servers omit it.
 */
import { MAX_SSE_LINE_CHARS } from './limits';

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, or "message" when absent. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  /** The last `id:` seen, if any. */
  id?: string;
  /** The `retry:` field in ms, when this event carried one. */
  retry?: number;
}

const BOM = '\ufeff';

/** A line or an event's data longer than the parser accepts: a broken or hostile stream, never a real event. */
export class SseTooLongError extends Error {
  override readonly name = 'SseTooLongError';
  constructor(readonly limit: number) {
    super(`an event stream line or event longer than ${limit} characters`);
  }
}

/** Incremental parser: feed decoded text in chunks of any size, then call `end()`. */
export class SseParser {
  /** @param maxLineChars longest line, and longest data of one event, accepted (default 1,000,000). */
  constructor(private readonly maxLineChars = MAX_SSE_LINE_CHARS) {}

  private buffer = '';
  private skipLeadingLf = false;
  private started = false;
  private eventType = '';
  private data = '';
  private hasData = false;
  private lastId: string | undefined;
  private retry: number | undefined;

  /**
   * Parses a chunk; returns the events it completed.
   * @throws SseTooLongError when a line or an event's data grows past the limit.
   */
  push(chunk: string): SseEvent[] {
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.startsWith(BOM)) chunk = chunk.slice(1);
    }
    if (this.skipLeadingLf && chunk.startsWith('\n')) chunk = chunk.slice(1);
    if (chunk.length > 0) this.skipLeadingLf = false;
    this.buffer += chunk;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      this.line(this.buffer.slice(start, i), events);
      if (c === 0x0d) {
        if (i + 1 < this.buffer.length) {
          if (this.buffer.charCodeAt(i + 1) === 0x0a) i++;
        } else {
          // The LF of a CRLF may arrive in the next chunk.
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > this.maxLineChars) throw new SseTooLongError(this.maxLineChars);
    return events;
  }

  /** Flushes the last line and the pending event at the end of the stream. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer.length > 0) this.line(this.buffer, events);
    this.buffer = '';
    this.dispatch(events);
    return events;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line.length === 0) {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // ':' starts a comment (keep-alives)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data += this.hasData ? `\n${value}` : value;
        this.hasData = true;
        if (this.data.length > this.maxLineChars) throw new SseTooLongError(this.maxLineChars);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
      // Unknown fields are ignored, as the standard says.
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.hasData) {
      const event: SseEvent = { event: this.eventType || 'message', data: this.data };
      if (this.lastId !== undefined) event.id = this.lastId;
      if (this.retry !== undefined) event.retry = this.retry;
      out.push(event);
    }
    this.eventType = '';
    this.data = '';
    this.hasData = false;
    this.retry = undefined;
  }
}

/**
 * Reads a byte stream as SSE events. Multi-byte UTF-8 characters split across chunks are decoded correctly.
 * `onChunk` runs on every received chunk (used to reset an idle timeout).
 * @throws SseTooLongError when a line or an event grows past `maxLineChars` (the connection is released).
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  onChunk?: () => void,
  maxLineChars?: number,
): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser(maxLineChars);
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      onChunk?.();
      yield* parser.push(decoder.decode(next.value, { stream: true }));
    }
    done = true;
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    // An early exit (consumer stopped, error) must release the connection.
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
