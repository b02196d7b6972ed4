/**
 * Tree format v1 (docs/tree-format.md): `serializeTree` writes a RaptorTree as JSON with base64 float32
 * embeddings; `parseTree` reads JSON from anywhere (a file a user dropped, IndexedDB, another tool), validates
 * every field and rejects the first bad one with its JSON path, e.g.
 * `nodes[12].children[3]: id 57 is out of range (the tree has 40 nodes)`.
 */
import { allocateRows } from './dot-kernel';
import { Base64Error, base64DecodedLength, decodeFloat32LEInto, encodeFloat32LE } from './base64';
import { AerieError } from './errors';
import { countTokens } from './text';
import type { BuildParams, NodeSource, RaptorTree, SummarizerInfo, TreeDocument, TreeNode } from './types';

export { TREE_FORMAT, TREE_FORMAT_VERSION, TREE_LIMITS } from './tree-limits';
import { TREE_FORMAT, TREE_FORMAT_VERSION, TREE_LIMITS } from './tree-limits';

/** Why a tree file was rejected; the UI words each differently. */
export type TreeFormatErrorCode =
  'INVALID_JSON' | 'UNSUPPORTED_FORMAT' | 'UNSUPPORTED_VERSION' | 'LIMIT_EXCEEDED' | 'INVALID_TREE';

/** A tree file that cannot be read. `details.path` is the JSON path of the first bad field ("" for the root). */
export class TreeFormatError extends AerieError<TreeFormatErrorCode> {
  constructor(
    code: TreeFormatErrorCode,
    path: string,
    reason: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, `${path || '(root)'}: ${reason}`, { path, ...details });
  }
}

/** Keys that would reach `Object.prototype` if copied naively; rejected wherever they appear. */
const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
/** How much of a bad string value an error message quotes. */
const QUOTE_CHARS = 40;
/** Bytes per value in a base64 embedding. */
const FLOAT32_BYTES = 4;
/** ISO 8601 date and time with seconds optional and an explicit zone, e.g. 2024-03-01T12:00:00.000Z. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Validation of one BuildParams field: integer or real, inclusive range. */
interface ParamRule {
  integer: boolean;
  min: number;
  max: number;
}
const PARAM_RULES: { readonly [K in keyof BuildParams]: ParamRule } = {
  chunkTokens: { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER },
  reductionDim: { integer: true, min: 1, max: TREE_LIMITS.maxDim },
  clusterThreshold: { integer: false, min: 0, max: 1 },
  maxClusterTokens: { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER },
  maxLayers: { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER },
  summaryTokens: { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER },
  seed: { integer: true, min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
};
const KNOWN_PARAMS = Object.keys(PARAM_RULES) as (keyof BuildParams)[];

type JsonObject = Record<string, unknown>;
type ParamValue = string | number | boolean | null;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') {
    const shown = value.length > QUOTE_CHARS ? `${value.slice(0, QUOTE_CHARS)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return 'an object';
  return `a value of type ${typeof value}`;
}

function invalid(path: string, reason: string, details: Record<string, unknown> = {}): TreeFormatError {
  return new TreeFormatError('INVALID_TREE', path, reason, details);
}

function expected(path: string, what: string, value: unknown): TreeFormatError {
  return invalid(path, `expected ${what}, got ${describe(value)}`);
}

function tooMany(path: string, what: string, count: number, limit: number): TreeFormatError {
  return new TreeFormatError('LIMIT_EXCEEDED', path, `${count} ${what} exceed the limit of ${limit}`, {
    count,
    limit,
  });
}

/** Reads own properties only, so a prototype (e.g. from an object literal with `__proto__`) is never consulted. */
function field(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function asObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw expected(path, 'an object', value);
  }
  const obj = value as JsonObject;
  for (const key of FORBIDDEN_KEYS) {
    if (Object.hasOwn(obj, key)) throw invalid(`${path ? `${path}.` : ''}${key}`, 'forbidden key');
  }
  return obj;
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function readString(obj: JsonObject, key: string, path: string, maxChars: number): string {
  const value = field(obj, key);
  if (typeof value !== 'string') throw expected(path, 'a string', value);
  if (value.length > maxChars) throw tooMany(path, 'characters', value.length, maxChars);
  return value;
}

function readDim(value: unknown): number {
  if (!isNonNegativeInteger(value) || value < 1) throw expected('embedding.dim', 'a positive integer', value);
  if (value > TREE_LIMITS.maxDim) throw tooMany('embedding.dim', 'dimensions', value, TREE_LIMITS.maxDim);
  return value;
}

function readSummarizer(value: unknown): SummarizerInfo {
  const obj = asObject(value, 'summarizer');
  const kind = field(obj, 'kind');
  if (kind !== 'llm' && kind !== 'extractive') {
    throw expected('summarizer.kind', '"llm" or "extractive"', kind);
  }
  if (field(obj, 'model') === undefined) return { kind };
  return { kind, model: readString(obj, 'model', 'summarizer.model', TREE_LIMITS.maxNameChars) };
}

/**
 * Known BuildParams are required and range-checked. Unknown entries (parameters of a newer builder) are kept
 * when they are JSON primitives, so a round trip loses nothing; nested values are rejected.
 */
function readParams(value: unknown): RaptorTree['params'] {
  const obj = asObject(value, 'params');
  const keys = Object.keys(obj);
  if (keys.length > TREE_LIMITS.maxParams) {
    throw tooMany('params', 'entries', keys.length, TREE_LIMITS.maxParams);
  }
  const out: JsonObject = {};
  for (const key of KNOWN_PARAMS) {
    const v = field(obj, key);
    const rule = PARAM_RULES[key];
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!rule.integer || Number.isSafeInteger(v)) &&
      v >= rule.min &&
      v <= rule.max;
    if (!ok) throw expected(`params.${key}`, describeRule(rule), v);
    out[key] = v;
  }
  for (const key of keys) {
    if (Object.hasOwn(PARAM_RULES, key)) continue;
    const path = `params.${key}`;
    if (key.length > TREE_LIMITS.maxNameChars) {
      throw tooMany('params', 'characters in a key', key.length, TREE_LIMITS.maxNameChars);
    }
    const v = obj[key];
    if (typeof v === 'string') {
      if (v.length > TREE_LIMITS.maxNameChars) {
        throw tooMany(path, 'characters', v.length, TREE_LIMITS.maxNameChars);
      }
    } else if (!(v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
      throw expected(
        path,
        'a string, finite number, boolean or null (unknown parameters are kept only then)',
        v,
      );
    }
    out[key] = v;
  }
  return out as RaptorTree['params'];
}

function describeRule(rule: ParamRule): string {
  const kind = rule.integer ? 'an integer' : 'a number';
  if (rule.max !== Number.MAX_SAFE_INTEGER) return `${kind} in [${rule.min}, ${rule.max}]`;
  return rule.min === Number.MIN_SAFE_INTEGER ? kind : `${kind} ≥ ${rule.min}`;
}

function readDocuments(value: unknown): TreeDocument[] {
  if (!Array.isArray(value)) throw expected('documents', 'an array', value);
  if (value.length > TREE_LIMITS.maxDocuments) {
    throw tooMany('documents', 'documents', value.length, TREE_LIMITS.maxDocuments);
  }
  const seen = new Set<string>();
  // Array.from visits every index: `map` would skip the holes of a sparse array (a value not read from JSON).
  return Array.from(value, (item: unknown, i) => {
    const path = `documents[${i}]`;
    const obj = asObject(item, path);
    const id = readString(obj, 'id', `${path}.id`, TREE_LIMITS.maxNameChars);
    if (id === '') throw invalid(`${path}.id`, 'a document id must not be empty');
    if (seen.has(id)) throw invalid(`${path}.id`, `duplicate document id ${JSON.stringify(id)}`);
    seen.add(id);
    const name = readString(obj, 'name', `${path}.name`, TREE_LIMITS.maxNameChars);
    const chars = field(obj, 'chars');
    if (!isNonNegativeInteger(chars)) throw expected(`${path}.chars`, 'a non-negative integer', chars);
    return { id, name, chars };
  });
}

function readSource(value: unknown, path: string, documentIds: ReadonlySet<string>): NodeSource {
  const obj = asObject(value, path);
  const doc = field(obj, 'doc');
  if (typeof doc !== 'string') throw expected(`${path}.doc`, 'a string', doc);
  if (!documentIds.has(doc)) {
    throw invalid(`${path}.doc`, `${describe(doc)} is not the id of a listed document (documents[].id)`);
  }
  const start = field(obj, 'start');
  if (!isNonNegativeInteger(start)) throw expected(`${path}.start`, 'a non-negative integer', start);
  const end = field(obj, 'end');
  if (!isNonNegativeInteger(end) || end < start) {
    throw expected(`${path}.end`, `an integer ≥ start (${start})`, end);
  }
  const page = field(obj, 'page');
  if (page === undefined) return { doc, start, end };
  if (!isNonNegativeInteger(page) || page < 1) throw expected(`${path}.page`, 'a positive integer', page);
  return { doc, start, end, page };
}

/** The optional `label` (topic terms) and `title` (an LLM's title) of a summary. */
function readTopic(obj: JsonObject, path: string, node: TreeNode): void {
  const label = field(obj, 'label');
  const title = field(obj, 'title');
  if ((label !== undefined || title !== undefined) && node.layer === 0) {
    const key = label !== undefined ? 'label' : 'title';
    throw invalid(`${path}.${key}`, `only summaries (layer ≥ 1) carry a ${key}; this node is a leaf`);
  }
  if (label !== undefined) {
    if (!Array.isArray(label)) throw expected(`${path}.label`, 'an array of strings', label);
    if (label.length > TREE_LIMITS.maxLabelTerms) {
      throw tooMany(`${path}.label`, 'terms', label.length, TREE_LIMITS.maxLabelTerms);
    }
    node.label = Array.from(label, (term: unknown, k) => {
      const at = `${path}.label[${k}]`;
      if (typeof term !== 'string' || term.trim() === '') throw expected(at, 'a non-empty string', term);
      if (term.length > TREE_LIMITS.maxLabelChars) {
        throw tooMany(at, 'characters', term.length, TREE_LIMITS.maxLabelChars);
      }
      return term;
    });
  }
  if (title !== undefined) node.title = readString(obj, 'title', `${path}.title`, TREE_LIMITS.maxLabelChars);
}

/** Fills `target` (one node's view into the flat buffer) from a number array or base64 float32. */
function readEmbedding(value: unknown, path: string, target: Float32Array): void {
  const dim = target.length;
  if (typeof value === 'string') {
    try {
      const bytes = base64DecodedLength(value);
      if (bytes !== dim * FLOAT32_BYTES) {
        throw invalid(
          path,
          `base64 decodes to ${bytes} bytes; embedding.dim ${dim} needs ${dim * FLOAT32_BYTES}`,
          {
            bytes,
            expected: dim * FLOAT32_BYTES,
          },
        );
      }
      decodeFloat32LEInto(value, target);
    } catch (error) {
      if (error instanceof Base64Error) throw invalid(path, error.message, { ...error.details });
      throw error;
    }
    for (let k = 0; k < dim; k++) {
      if (!Number.isFinite(target[k])) throw invalid(path, `float ${k} is ${target[k]}, not a finite number`);
    }
    return;
  }
  if (!Array.isArray(value)) throw expected(path, `an array of ${dim} numbers or a base64 string`, value);
  if (value.length !== dim) {
    throw invalid(path, `expected ${dim} numbers (embedding.dim), got ${value.length}`, {
      length: value.length,
      dim,
    });
  }
  for (let k = 0; k < dim; k++) {
    const v: unknown = value[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw expected(`${path}[${k}]`, 'a finite number', v);
    target[k] = v;
    if (!Number.isFinite(target[k])) throw invalid(`${path}[${k}]`, `${v} overflows float32`);
  }
}

/** Checks one node's children against the nodes read so far (children sit one layer down, so before it). */
function readChildren(
  value: unknown,
  path: string,
  self: { id: number; layer: number },
  layers: Int32Array,
  stamp: Int32Array,
): number[] {
  const n = layers.length;
  if (!Array.isArray(value)) throw expected(path, 'an array of node ids', value);
  if (self.layer === 0 && value.length > 0) {
    throw invalid(path, `a leaf (layer 0) has no children, got ${value.length}`);
  }
  if (self.layer > 0 && value.length === 0) {
    throw invalid(path, `a layer-${self.layer} node needs at least one child in layer ${self.layer - 1}`);
  }
  if (value.length > n) throw tooMany(path, 'children', value.length, n);
  const mark = self.id + 1;
  for (let j = 0; j < value.length; j++) {
    const c: unknown = value[j];
    if (typeof c !== 'number' || !Number.isInteger(c)) {
      throw expected(`${path}[${j}]`, 'an integer node id', c);
    }
    if (c < 0 || c >= n) {
      throw invalid(`${path}[${j}]`, `id ${c} is out of range (the tree has ${n} nodes)`, {
        id: c,
        nodes: n,
      });
    }
    if (c === self.id) throw invalid(`${path}[${j}]`, `node ${c} is its own child (a cycle)`);
    if (c > self.id) {
      throw invalid(
        `${path}[${j}]`,
        `node ${c} comes after node ${self.id}, so it is not in layer ${self.layer - 1} (nodes are ordered by layer; ` +
          'a child is exactly one layer down, which also rules out cycles)',
      );
    }
    if (layers[c] !== self.layer - 1) {
      throw invalid(
        `${path}[${j}]`,
        `node ${c} is in layer ${layers[c]}, not one layer down (${self.layer - 1})`,
        {
          childLayer: layers[c],
          layer: self.layer,
        },
      );
    }
    if (stamp[c] === mark) throw invalid(`${path}[${j}]`, `duplicate child ${c}`);
    stamp[c] = mark;
  }
  return (value as number[]).slice();
}

/**
 * Reads the nodes into one flat Float32Array (each node's `embedding` is a subarray view of it), checking ids,
 * layer order and contiguity, children, embeddings and sources in a single pass, then recounts every text.
 */
function readNodes(value: unknown, dim: number, documentIds: ReadonlySet<string>): TreeNode[] {
  if (!Array.isArray(value)) throw expected('nodes', 'an array', value);
  const n = value.length;
  if (n === 0) throw invalid('nodes', 'a tree needs at least one node');
  if (n > TREE_LIMITS.maxNodes) throw tooMany('nodes', 'nodes', n, TREE_LIMITS.maxNodes);
  if (n * dim > TREE_LIMITS.maxEmbeddingValues) {
    throw tooMany('nodes', `embedding values (${n} nodes × ${dim})`, n * dim, TREE_LIMITS.maxEmbeddingValues);
  }
  // In kernel memory where possible: retrieval then scores the rows in place (dot-kernel.ts).
  const flat = allocateRows(n, dim);
  const layers = new Int32Array(n);
  const stamp = new Int32Array(n);
  const nodes: TreeNode[] = new Array(n);
  let previousLayer = 0;
  for (let i = 0; i < n; i++) {
    const path = `nodes[${i}]`;
    const obj = asObject(value[i], path);
    const id = field(obj, 'id');
    if (id !== i) throw expected(`${path}.id`, `${i} (ids are dense: nodes[i].id === i)`, id);
    const layer = field(obj, 'layer');
    if (!isNonNegativeInteger(layer)) throw expected(`${path}.layer`, 'a non-negative integer', layer);
    if (i === 0 && layer !== 0) {
      throw invalid(`${path}.layer`, `the first node must be a leaf (layer 0), got ${layer}`);
    }
    if (layer < previousLayer) {
      throw invalid(
        `${path}.layer`,
        `layer ${layer} after layer ${previousLayer}: nodes must be ordered by layer`,
      );
    }
    if (layer > previousLayer + 1) {
      throw invalid(
        `${path}.layer`,
        `layer ${layer} follows layer ${previousLayer}: layer ${previousLayer + 1} has no nodes (layers must be contiguous)`,
      );
    }
    previousLayer = layer;
    layers[i] = layer;
    const text = readString(obj, 'text', `${path}.text`, TREE_LIMITS.maxTextChars);
    // The stored count is only type-checked: files from other tools may count with another tokenizer (the
    // official RAPTOR tree's file holds o200k_base counts). The true count is filled in below.
    const tokens = field(obj, 'tokens');
    if (!isNonNegativeInteger(tokens)) throw expected(`${path}.tokens`, 'a non-negative integer', tokens);
    const children = readChildren(
      field(obj, 'children'),
      `${path}.children`,
      { id: i, layer },
      layers,
      stamp,
    );
    const embedding = flat.subarray(i * dim, (i + 1) * dim);
    readEmbedding(field(obj, 'embedding'), `${path}.embedding`, embedding);
    const node: TreeNode = { id: i, layer, text, tokens, children, embedding };
    const source = field(obj, 'source');
    if (source !== undefined) {
      if (layer !== 0) {
        throw invalid(
          `${path}.source`,
          `only leaves (layer 0) carry a source; this node is in layer ${layer}`,
        );
      }
      node.source = readSource(source, `${path}.source`, documentIds);
    }
    readTopic(obj, path, node);
    nodes[i] = node;
  }
  // Counting is the slow part of parsing, so it runs only once the whole file is known to be valid.
  for (const node of nodes) node.tokens = countTokens(node.text);
  return nodes;
}

/**
 * Reads a tree file (JSON text, or a value already parsed from JSON) and validates all of it. Embeddings may be
 * number arrays or base64 strings; they land in ONE flat Float32Array of nodes × dim, each node's `embedding`
 * a view into it (so transferring one node's `embedding.buffer` moves them all). Unknown fields are dropped,
 * except unknown primitive `params`, which are kept. Each node's `tokens` is derived: the stored value must be
 * a non-negative integer but is replaced by `countTokens(text)` (cl100k_base), so the tree carries true counts
 * whatever tokenizer wrote the file; this is one tokenizer pass over all texts (docs/tree-format.md, "In memory").
 * @throws TreeFormatError naming the JSON path of the first bad field.
 */
export function parseTree(json: string | unknown): RaptorTree {
  let root: unknown = json;
  if (typeof json === 'string') {
    try {
      root = JSON.parse(json);
    } catch (error) {
      throw new TreeFormatError('INVALID_JSON', '', `not valid JSON (${(error as Error).message})`);
    }
  }
  const obj = asObject(root, '');
  const format = field(obj, 'format');
  if (format !== TREE_FORMAT) {
    throw new TreeFormatError(
      'UNSUPPORTED_FORMAT',
      'format',
      `expected "${TREE_FORMAT}", got ${describe(format)}`,
    );
  }
  const version = field(obj, 'version');
  if (version !== TREE_FORMAT_VERSION) {
    throw new TreeFormatError(
      'UNSUPPORTED_VERSION',
      'version',
      `this app reads version ${TREE_FORMAT_VERSION}, got ${describe(version)}`,
      { version },
    );
  }
  const title = readString(obj, 'title', 'title', TREE_LIMITS.maxNameChars);
  const createdAt = readString(obj, 'createdAt', 'createdAt', TREE_LIMITS.maxNameChars);
  if (!ISO_TIMESTAMP.test(createdAt)) throw expected('createdAt', 'an ISO 8601 timestamp', createdAt);
  const embeddingInfo = asObject(field(obj, 'embedding'), 'embedding');
  const model = readString(embeddingInfo, 'model', 'embedding.model', TREE_LIMITS.maxNameChars);
  const dim = readDim(field(embeddingInfo, 'dim'));
  const summarizer = readSummarizer(field(obj, 'summarizer'));
  const params = readParams(field(obj, 'params'));
  const documents = readDocuments(field(obj, 'documents'));
  const nodes = readNodes(field(obj, 'nodes'), dim, new Set(documents.map((d) => d.id)));
  return {
    format: TREE_FORMAT,
    version: TREE_FORMAT_VERSION,
    title,
    createdAt,
    embedding: { model, dim },
    summarizer,
    params,
    documents,
    nodes,
  };
}

function isParamValue(value: unknown): value is ParamValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * Writes a tree as format v1 JSON: embeddings as base64 of little-endian float32 (bit-exact, a third the size
 * of decimal numbers), one node per line so files diff well. `parseTree(serializeTree(t))` deep-equals any
 * valid `t` whose `tokens` are the cl100k counts of their texts (as in every parsed or built tree). Unknown
 * `params` that are not JSON primitives are left out, since `parseTree` would refuse them.
 * @throws TreeFormatError when a node's embedding length differs from `embedding.dim` (the file would not load).
 */
export function serializeTree(tree: RaptorTree): string {
  const dim = tree.embedding.dim;
  const params: JsonObject = {};
  for (const [key, value] of Object.entries(tree.params)) if (isParamValue(value)) params[key] = value;
  const head = JSON.stringify({
    format: TREE_FORMAT,
    version: TREE_FORMAT_VERSION,
    title: tree.title,
    createdAt: tree.createdAt,
    embedding: { model: tree.embedding.model, dim },
    summarizer:
      tree.summarizer.model === undefined
        ? { kind: tree.summarizer.kind }
        : { kind: tree.summarizer.kind, model: tree.summarizer.model },
    params,
    documents: tree.documents.map(({ id, name, chars }) => ({ id, name, chars })),
  });
  const lines = tree.nodes.map((node, i) => {
    if (node.embedding.length !== dim) {
      throw invalid(
        `nodes[${i}].embedding`,
        `expected ${dim} numbers (embedding.dim), got ${node.embedding.length}`,
      );
    }
    const { id, layer, text, tokens, children, source } = node;
    const out: JsonObject = { id, layer, text, tokens, children, embedding: encodeFloat32LE(node.embedding) };
    if (source !== undefined) {
      out.source =
        source.page === undefined
          ? { doc: source.doc, start: source.start, end: source.end }
          : { doc: source.doc, start: source.start, end: source.end, page: source.page };
    }
    if (node.label !== undefined) out.label = node.label.slice();
    if (node.title !== undefined) out.title = node.title;
    return JSON.stringify(out);
  });
  return `${head.slice(0, -1)},"nodes":[\n${lines.join(',\n')}\n]}\n`;
}
