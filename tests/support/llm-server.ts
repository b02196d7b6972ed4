/**
 * FAKE LLM SERVER FOR TESTS. A real HTTP server (node:http on 127.0.0.1) that speaks the OpenAI
 * chat-completions and Anthropic Messages protocols, streamed (SSE) and not, plus /v1/embeddings and
 * /v1/models. Replies are deterministic functions of the request (no model runs): a summary is the first words
 * of each passage, an answer quotes passage [1] and cites it. "Tokens" here are whitespace-separated words.
 *
 * Tests script it per request with a queue of behaviours (429 with Retry-After, 500s, hangs, malformed JSON,
 * a stream cut short…) and inspect its request log and in-flight counters. Browsers can call it cross-origin
 * (CORS with preflight). When it runs as its own process (scripts/llm-server.ts), the same controls are
 * reachable over HTTP under /__fake__/ (enqueue, configure, reset, requests).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with one model request (chat or embeddings), instead of the normal reply. */
export type FakeLlmBehaviour = { delayMs?: number } & (
  | { kind: 'reply'; text: string; finishReason?: string }
  | { kind: 'error'; status: number; message?: string; type?: string; retryAfter?: string }
  | { kind: 'raw'; status?: number; body: string; contentType?: string }
  | { kind: 'malformed' }
  | { kind: 'hang' }
  /**
   * The connection drops: a stream after `afterChunks` text chunks (default 0); a whole reply after half its body
   * has reached the client when `afterChunks` ≥ 1, else at once (the headers may not arrive).
   */
  | { kind: 'close'; afterChunks?: number; mode?: 'destroy' | 'end' }
  | { kind: 'stream-error'; afterChunks?: number; type?: string; message?: string }
  /**
   * A body without end: `head` once, then `chunk` again and again until the client closes the connection (a
   * server that ignores every limit). `sent` in the log counts the bytes written.
   */
  | { kind: 'flood'; status?: number; contentType?: string; head?: string; chunk: string }
);

/** Settings of the fake server; all can change between requests with `configure`. */
export interface FakeLlmServerOptions {
  /** Expected API key (Bearer or x-api-key); a missing or wrong key gets 401. Default: none needed. */
  apiKey?: string;
  /** Known models; any other gets 404. Default ['fake-model']. */
  models?: string[];
  /** Largest prompt in words; a longer one gets 400 in the protocol's real error format. Default unlimited. */
  contextLimit?: number;
  /** Delay before every model reply, ms. Default 0. */
  latencyMs?: number;
  /**
   * While true, every model reply waits (after its latency) until `configure({ hold: false })`: a test sees a
   * stage that lasts only while requests are open, however fast or loaded the machine. Default false.
   */
  hold?: boolean;
  /** Delay between stream chunks, ms. Default 0. */
  chunkDelayMs?: number;
  /** CORS: true allows any origin, a string allows that origin, false sends no CORS headers. Default true. */
  cors?: boolean | string;
  /** Line ending of SSE streams. Default "\n". */
  lineEnding?: '\n' | '\r\n';
  /** Length of fake embeddings. Default 16. */
  embeddingDim?: number;
  /**
   * Passage numbers an answer cites, one sentence each (the passage's first words, then "[n]."), followed by a
   * sentence that cites nothing; numbers beyond the passages sent are skipped. Default: [1] only, no other
   * sentence.
   */
  answerCites?: number[];
}

/** One logged request. Secret headers are replaced by "[redacted]". */
export interface FakeLlmRequest {
  seq: number;
  /** Arrival, ms since the epoch with sub-ms precision. */
  time: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  status?: number;
  /** The scripted behaviour applied, if any. */
  behaviour?: FakeLlmBehaviour['kind'];
  /** Usage the server reported, in fake tokens (words). */
  usage?: { promptTokens: number; completionTokens: number };
  /** Bytes of body written (set by `flood`). */
  sent?: number;
  /** Set once the client closed the connection of a `flood`. */
  closedByClient?: boolean;
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie', 'proxy-authorization']);
const CHUNK_CHARS = 6; // small pieces so words and citations are split across chunks
const ANSWER_WORDS = 8;
const SUMMARY_PREFIX = 'including as many key details as possible: ';
const DEFAULT_DIM = 16;
const DEFAULT_MODELS = ['fake-model'];
const MODEL_ROUTES = ['/v1/chat/completions', '/v1/messages', '/v1/embeddings'];
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

type Protocol = 'openai' | 'anthropic';
/** A chat message as the fake reads it. */
export type FakeMessage = { role: string; content: unknown };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const words = (text: string) => text.split(/\s+/).filter(Boolean);
const now = () => performance.timeOrigin + performance.now();

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p as { text?: string })?.text ?? '').join(' ');
  return '';
}

/** A sentence of the fake's answers that cites nothing (tests find it marked). */
export const UNCITED_SENTENCE = 'Nothing in the passages says more than this.';

/**
 * The deterministic reply: an answer quoting passage [1] (or each passage of `cites`, then a sentence citing
 * nothing), or a summary from each passage's first words.
 */
export function fakeReply(messages: FakeMessage[], maxTokens: number, cites?: readonly number[]): string {
  const user = textOf([...messages].reverse().find((m) => m.role === 'user')?.content);
  const first = /^\[1\] (.*)$/m.exec(user);
  if (first && cites) {
    const sentences = cites.flatMap((n) => {
      const passage = new RegExp(`^\\[${n}\\] (.*)$`, 'm').exec(user);
      const opening = passage
        ? words(passage[1])
            .slice(0, ANSWER_WORDS)
            .join(' ')
            .replace(/[.!?]+$/, '')
        : '';
      return opening ? [`${opening} [${n}].`] : [];
    });
    return [...sentences, UNCITED_SENTENCE].join(' ');
  }
  if (first) return `${words(first[1]).slice(0, ANSWER_WORDS).join(' ')} [1].`;
  const at = user.indexOf(SUMMARY_PREFIX);
  const context = (at >= 0 ? user.slice(at + SUMMARY_PREFIX.length) : user).replace(/:\s*$/, '');
  const passages = context.split(/\n\s*\n/).filter((p) => p.trim());
  const each = Math.max(1, Math.floor(maxTokens / Math.max(1, passages.length)));
  return passages
    .flatMap((p) => words(p).slice(0, each))
    .slice(0, maxTokens)
    .join(' ');
}

/** A deterministic unit vector from hashed words. */
function fakeEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of words(text.toLowerCase())) {
    let h = FNV_OFFSET;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), FNV_PRIME) >>> 0;
    v[h % dim] += 1;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) v[0] = 1;
  return norm === 0 ? v : v.map((x) => x / norm);
}

const ERROR_TYPES: Record<number, [anthropic: string, openai: string]> = {
  400: ['invalid_request_error', 'invalid_request_error'],
  401: ['authentication_error', 'invalid_api_key'],
  403: ['permission_error', 'permission_denied'],
  404: ['not_found_error', 'model_not_found'],
  429: ['rate_limit_error', 'rate_limit_exceeded'],
  529: ['overloaded_error', 'overloaded'],
};

function errorJson(protocol: Protocol, status: number, message: string, type?: string): string {
  const [a, o] = ERROR_TYPES[status] ?? ['api_error', 'server_error'];
  return protocol === 'anthropic'
    ? JSON.stringify({ type: 'error', error: { type: type ?? a, message } })
    : JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: type ?? o } });
}

/** A reply being sent. */
interface Reply {
  protocol: Protocol;
  model: string;
  text: string;
  finish?: string;
  usage: { promptTokens: number; completionTokens: number };
}

function promptWords(messages: FakeMessage[]): number {
  return messages.reduce((n, m) => n + words(textOf(m.content)).length, 0);
}

function openaiUsage(usage: Reply['usage']) {
  const { promptTokens, completionTokens } = usage;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function openaiCompletion(reply: Reply) {
  const message = { role: 'assistant', content: reply.text };
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: reply.model,
    choices: [{ index: 0, message, finish_reason: reply.finish ?? 'stop' }],
    usage: openaiUsage(reply.usage),
  };
}

function anthropicMessage(reply: Reply) {
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: reply.finish ?? 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: reply.usage.promptTokens, output_tokens: reply.usage.completionTokens },
  };
}

/** The fake LLM server. `start()` it, script it, inspect it, `close()` it. */
export class FakeLlmServer {
  /** Every request received (OPTIONS preflights included), oldest first. */
  readonly requests: FakeLlmRequest[] = [];
  private queue: FakeLlmBehaviour[] = [];
  private options: FakeLlmServerOptions;
  private active = 0;
  private peak = 0;
  private baseUrl = '';
  private held: (() => void)[] = [];
  private readonly server = http.createServer((req, res) => {
    this.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake server bug: ${String(error)}`);
    });
  });

  constructor(options: FakeLlmServerOptions = {}) {
    this.options = { ...options };
  }

  /** Listens on 127.0.0.1 (port 0 = any free port); resolves with the base URL, e.g. http://127.0.0.1:40123. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    this.baseUrl = `http://${host}:${address.port}`;
    return this.baseUrl;
  }

  /** Base URL (after `start`). */
  get url(): string {
    return this.baseUrl;
  }
  /** Base URL for an OpenAI-protocol endpoint: `${url}/v1`. */
  get openaiBaseUrl(): string {
    return `${this.baseUrl}/v1`;
  }
  /** Base URL for an Anthropic-protocol endpoint: the server root. */
  get anthropicBaseUrl(): string {
    return this.baseUrl;
  }
  /** Model requests being handled now. */
  get inFlight(): number {
    return this.active;
  }
  /** Most model requests handled at once since start or `reset`. */
  get maxInFlight(): number {
    return this.peak;
  }
  /** Logged requests that were not CORS preflights. */
  get modelRequests(): FakeLlmRequest[] {
    return this.requests.filter((r) => r.method !== 'OPTIONS');
  }

  /** Queues behaviours for the next model requests, one each, in order. */
  enqueue(...behaviours: FakeLlmBehaviour[]): this {
    this.queue.push(...behaviours);
    return this;
  }
  /** Changes settings. */
  configure(options: Partial<FakeLlmServerOptions>): this {
    Object.assign(this.options, options);
    if (!this.options.hold) for (const release of this.held.splice(0)) release();
    return this;
  }
  /** Clears the log, the queue and the peak counter. */
  reset(): void {
    this.requests.length = 0;
    this.queue = [];
    this.peak = this.active;
  }

  /** Stops listening and drops every open connection (hanging requests included). */
  async close(): Promise<void> {
    for (const release of this.held.splice(0)) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private setCors(req: http.IncomingMessage, res: http.ServerResponse): void {
    const { cors = true } = this.options;
    if (cors === false) return;
    res.setHeader('access-control-allow-origin', cors === true ? '*' : cors);
    res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'access-control-allow-headers',
      req.headers['access-control-request-headers'] ??
        'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
    );
    res.setHeader('access-control-expose-headers', 'retry-after');
    res.setHeader('access-control-max-age', '600');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const time = now();
    this.setCors(req, res);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw || undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // Logged as text.
    }
    if (path.startsWith('/__fake__/')) return this.control(path, body, res);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      headers[k] = SECRET_HEADERS.has(k) ? '[redacted]' : Array.isArray(v) ? v.join(', ') : (v ?? '');
    }
    const method = req.method ?? '';
    const record: FakeLlmRequest = { seq: this.requests.length, time, method, path, headers, body };
    this.requests.push(record);
    const send = (status: number, text: string, contentType = 'application/json', extra = {}) => {
      record.status = status;
      if (!res.destroyed) res.writeHead(status, { 'content-type': contentType, ...extra }).end(text);
    };
    if (method === 'OPTIONS') return send(204, '', 'text/plain');
    const anthropic = path === '/v1/messages' || (path === '/v1/models' && !!headers['anthropic-version']);
    const protocol: Protocol = anthropic ? 'anthropic' : 'openai';
    const isModelList = method === 'GET' && path === '/v1/models';
    if (!isModelList && (method !== 'POST' || !MODEL_ROUTES.includes(path))) {
      return send(404, '404 page not found', 'text/plain');
    }

    this.active++;
    this.peak = Math.max(this.peak, this.active);
    res.on('close', () => this.active--);
    const behaviour = isModelList ? undefined : this.queue.shift();
    if (behaviour) record.behaviour = behaviour.kind;
    await sleep(behaviour?.delayMs ?? this.options.latencyMs ?? 0);
    if (this.options.hold && !isModelList) await new Promise<void>((release) => this.held.push(release));
    switch (behaviour?.kind) {
      case 'hang':
        return; // until the client gives up or the server closes
      case 'error': {
        const { status, type, retryAfter } = behaviour;
        const text = errorJson(protocol, status, behaviour.message ?? `fake error ${status}`, type);
        return send(status, text, undefined, retryAfter ? { 'retry-after': retryAfter } : {});
      }
      case 'raw':
        return send(behaviour.status ?? 200, behaviour.body, behaviour.contentType);
      case 'malformed':
        return send(200, '{"choices": [{"message": {"content": "unterminated');
      case 'flood':
        return this.flood(behaviour, record, res);
    }
    const refusal = this.refusal(protocol, req, isModelList ? undefined : body);
    if (refusal) return send(refusal.status, refusal.text);
    const models = this.options.models ?? DEFAULT_MODELS;
    if (isModelList) {
      const data = models.map((id) =>
        anthropic ? { id, type: 'model', display_name: id } : { id, object: 'model', owned_by: 'fake' },
      );
      return send(200, JSON.stringify({ object: 'list', data }));
    }
    const request = (body ?? {}) as Record<string, unknown>;
    if (path === '/v1/embeddings') return send(200, this.embeddings(request, record));

    const messages: FakeMessage[] = [
      ...(Array.isArray(request.messages) ? (request.messages as FakeMessage[]) : []),
    ];
    if (typeof request.system === 'string') messages.unshift({ role: 'system', content: request.system });
    const maxTokens = Number(request.max_tokens ?? request.max_completion_tokens ?? Infinity);
    const reply: Reply = {
      protocol,
      model: String(request.model),
      text:
        behaviour?.kind === 'reply'
          ? behaviour.text
          : fakeReply(messages, maxTokens, this.options.answerCites),
      finish: behaviour?.kind === 'reply' ? behaviour.finishReason : undefined,
      usage: { promptTokens: promptWords(messages), completionTokens: 0 },
    };
    reply.usage.completionTokens = words(reply.text).length;
    record.usage = reply.usage;
    record.status = 200;
    if (request.stream === true) {
      const usageInStream = (request.stream_options as { include_usage?: boolean } | undefined)
        ?.include_usage;
      return this.stream(reply, usageInStream === true, behaviour, res);
    }
    const json = JSON.stringify(protocol === 'anthropic' ? anthropicMessage(reply) : openaiCompletion(reply));
    if (behaviour?.kind === 'close') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      const half = json.slice(0, json.length >> 1);
      // With `afterChunks`, the status, headers and half the body reach the client before the connection drops
      // (a server that crashed mid-reply); without it the drop may overtake them (no response at all).
      if (behaviour.afterChunks) await new Promise<void>((resolve) => res.write(half, () => resolve()));
      else res.write(half);
      return void res.destroy();
    }
    send(200, json);
  }

  /** Writes `head`, then `chunk` until the client goes away (each write waits for the socket to drain). */
  private async flood(
    behaviour: Extract<FakeLlmBehaviour, { kind: 'flood' }>,
    record: FakeLlmRequest,
    res: http.ServerResponse,
  ): Promise<void> {
    record.status = behaviour.status ?? 200;
    record.sent = 0;
    res.writeHead(record.status, { 'content-type': behaviour.contentType ?? 'application/json' });
    let wake = () => undefined as void;
    res.on('close', () => {
      record.closedByClient = true;
      wake();
    });
    res.on('drain', () => wake());
    const write = (text: string) =>
      new Promise<void>((resolve) => {
        record.sent! += Buffer.byteLength(text);
        if (res.write(text)) resolve();
        else wake = resolve;
      });
    if (behaviour.head) await write(behaviour.head);
    while (!res.destroyed && !res.writableEnded && !record.closedByClient) await write(behaviour.chunk);
  }

  /** The 401, 404 or 400 a real server would send for this key, model or prompt length; else undefined. */
  private refusal(
    protocol: Protocol,
    req: http.IncomingMessage,
    body: unknown,
  ): { status: number; text: string } | undefined {
    const given = protocol === 'anthropic' ? req.headers['x-api-key'] : req.headers.authorization;
    const key = typeof given === 'string' ? given.replace(/^Bearer\s+/i, '') : undefined;
    if (this.options.apiKey !== undefined && key !== this.options.apiKey) {
      // Real servers echo (part of) the key; echoing all of it lets tests prove the client redacts it.
      const message = key ? `Incorrect API key provided: ${key}.` : "You didn't provide an API key.";
      return { status: 401, text: errorJson(protocol, 401, message) };
    }
    if (body === undefined) return undefined;
    const request = body as Record<string, unknown>;
    const model = String(request.model ?? '');
    if (!(this.options.models ?? DEFAULT_MODELS).includes(model)) {
      const message = protocol === 'anthropic' ? `model: ${model}` : `The model \`${model}\` does not exist.`;
      return { status: 404, text: errorJson(protocol, 404, message) };
    }
    const messages = [...(Array.isArray(request.messages) ? (request.messages as FakeMessage[]) : [])];
    if (typeof request.system === 'string') messages.push({ role: 'system', content: request.system });
    const used = promptWords(messages);
    const limit = this.options.contextLimit;
    if (limit === undefined || used <= limit) return undefined;
    const message =
      protocol === 'anthropic'
        ? `prompt is too long: ${used} tokens > ${limit} maximum`
        : `This model's maximum context length is ${limit} tokens. However, your messages resulted in ` +
          `${used} tokens. Please reduce the length of the messages.`;
    const code = protocol === 'openai' ? 'context_length_exceeded' : undefined;
    return { status: 400, text: errorJson(protocol, 400, message, code) };
  }

  private embeddings(request: Record<string, unknown>, record: FakeLlmRequest): string {
    const input = Array.isArray(request.input) ? request.input.map(String) : [String(request.input ?? '')];
    const dim = Number(request.dimensions ?? this.options.embeddingDim ?? DEFAULT_DIM);
    // Reversed on purpose: clients must order by `index`, as the OpenAI docs require.
    const data = input
      .map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, dim) }))
      .reverse();
    const promptTokens = input.reduce((n, t) => n + words(t).length, 0);
    record.usage = { promptTokens, completionTokens: 0 };
    const usage = { prompt_tokens: promptTokens, total_tokens: promptTokens };
    return JSON.stringify({ object: 'list', data, model: request.model, usage });
  }

  private async stream(
    reply: Reply,
    usageInStream: boolean,
    behaviour: FakeLlmBehaviour | undefined,
    res: http.ServerResponse,
  ): Promise<void> {
    const { protocol, model, text, finish, usage } = reply;
    const le = this.options.lineEnding ?? '\n';
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (data: unknown, name?: string) => {
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      res.write(`${name ? `event: ${name}${le}` : ''}data: ${payload}${le}${le}`);
    };
    const anthropic = (data: { type: string } & Record<string, unknown>) => event(data, data.type);
    const openai = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      event({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices, ...extra });
    const chars = Array.from(text);
    const pieces: string[] = [];
    for (let i = 0; i < chars.length; i += CHUNK_CHARS) pieces.push(chars.slice(i, i + CHUNK_CHARS).join(''));

    res.write(`: fake stream${le}${le}`);
    if (protocol === 'anthropic') {
      const message = {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
      };
      anthropic({
        type: 'message_start',
        message: { ...message, usage: { input_tokens: usage.promptTokens, output_tokens: 1 } },
      });
      anthropic({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      anthropic({ type: 'ping' });
    } else {
      openai([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    }
    for (let i = 0; i <= pieces.length; i++) {
      if (behaviour?.kind === 'close' && i === (behaviour.afterChunks ?? 0)) {
        if (behaviour.mode === 'end') return void res.end();
        // Flush what was written, so the client really received the first chunks before the connection drops.
        await new Promise<void>((resolve) => res.write(`: closing${le}${le}`, () => resolve()));
        return void res.destroy();
      }
      if (behaviour?.kind === 'stream-error' && i === (behaviour.afterChunks ?? 0)) {
        const error = {
          type: behaviour.type ?? 'overloaded_error',
          message: behaviour.message ?? 'Overloaded',
        };
        if (protocol === 'anthropic') anthropic({ type: 'error', error });
        else event({ error });
        return void res.end();
      }
      if (i === pieces.length) break;
      if (this.options.chunkDelayMs) await sleep(this.options.chunkDelayMs);
      if (res.destroyed) return;
      if (protocol === 'anthropic') {
        anthropic({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: pieces[i] } });
      } else {
        openai([{ index: 0, delta: { content: pieces[i] }, finish_reason: null }]);
      }
    }
    if (protocol === 'anthropic') {
      anthropic({ type: 'content_block_stop', index: 0 });
      const delta = { stop_reason: finish ?? 'end_turn', stop_sequence: null };
      anthropic({ type: 'message_delta', delta, usage: { output_tokens: usage.completionTokens } });
      anthropic({ type: 'message_stop' });
    } else {
      openai([{ index: 0, delta: {}, finish_reason: finish ?? 'stop' }]);
      if (usageInStream) openai([], { usage: openaiUsage(usage) });
      event('[DONE]');
    }
    res.end();
  }

  private control(path: string, body: unknown, res: http.ServerResponse): void {
    const ok = (data: unknown = { ok: true }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    if (path === '/__fake__/enqueue') this.enqueue(...(body as FakeLlmBehaviour[]));
    else if (path === '/__fake__/configure') this.configure(body as Partial<FakeLlmServerOptions>);
    else if (path === '/__fake__/reset') this.reset();
    else if (path === '/__fake__/requests') {
      return ok({ requests: this.requests, inFlight: this.active, maxInFlight: this.peak });
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('unknown control route');
      return;
    }
    ok();
  }
}

/** Creates and starts a fake LLM server. */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const server = new FakeLlmServer(options);
  await server.start();
  return server;
}
