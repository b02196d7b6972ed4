import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Base64Error,
  decodeBase64,
  decodeFloat32LEInto,
  encodeBase64,
  encodeFloat32LE,
} from '../../src/core/base64';
import { AerieError } from '../../src/core/errors';
import { seededRandom } from '../../src/core/random';
import { countTokens } from '../../src/core/tokens';
import { parseTree, serializeTree, TREE_LIMITS, TreeFormatError } from '../../src/core/tree-format';
import type { TreeFormatErrorCode } from '../../src/core/tree-format';
import { DEFAULT_BUILD_PARAMS } from '../../src/core/types';
import type { RaptorTree } from '../../src/core/types';

const OFFICIAL_TREE = readFileSync(
  new URL('../fixtures/official-cinderella-tree.json', import.meta.url),
  'utf8',
);
/** cl100k_base counts of the official tree's texts, computed by OpenAI's tiktoken (make-cl100k-counts.mjs). */
const TIKTOKEN_COUNTS = JSON.parse(
  readFileSync(new URL('../fixtures/chunk/cl100k-counts.json', import.meta.url), 'utf8'),
) as { officialTree: { id: number; tokens: number }[] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- hostile inputs need free-form mutation
type Json = any;

/** A valid three-layer tree in file form, with number-array embeddings. */
function validJson(): Json {
  return {
    format: 'raptor-tree',
    version: 1,
    title: 'Small',
    createdAt: '2024-05-01T10:00:00Z',
    embedding: { model: 'test/model', dim: 3 },
    summarizer: { kind: 'extractive' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [{ id: 'doc-a', name: 'a.txt', chars: 100 }],
    nodes: [
      {
        id: 0,
        layer: 0,
        text: 'alpha',
        tokens: 1,
        children: [],
        embedding: [1, 0, 0],
        source: { doc: 'doc-a', start: 0, end: 5 },
      },
      {
        id: 1,
        layer: 0,
        text: 'beta',
        tokens: 1,
        children: [],
        embedding: [0, 1, 0],
        source: { doc: 'doc-a', start: 6, end: 10, page: 2 },
      },
      { id: 2, layer: 0, text: 'gamma', tokens: 1, children: [], embedding: [0, 0, 1] },
      { id: 3, layer: 1, text: 'alpha beta', tokens: 2, children: [0, 1], embedding: [0.5, 0.5, 0] },
      { id: 4, layer: 1, text: 'gamma', tokens: 1, children: [2], embedding: [0, 0, 1] },
      { id: 5, layer: 2, text: 'all', tokens: 1, children: [3, 4], embedding: [1, 1, 1] },
    ],
  };
}

function bits(a: Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

function expectSameTree(actual: RaptorTree, expected: RaptorTree): void {
  expect(actual).toEqual(expected);
  expect(actual.nodes.length).toBe(expected.nodes.length);
  actual.nodes.forEach((node, i) => expect(bits(node.embedding)).toEqual(bits(expected.nodes[i].embedding)));
}

function rejection(input: unknown): TreeFormatError {
  try {
    parseTree(input);
  } catch (error) {
    expect(error).toBeInstanceOf(TreeFormatError);
    expect(error).toBeInstanceOf(AerieError);
    return error as TreeFormatError;
  }
  throw new Error('parseTree accepted the input');
}

describe('base64', () => {
  it('encodes and decodes the RFC 4648 test vectors', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      const bytes = Uint8Array.from(plain, (c) => c.charCodeAt(0));
      expect(encodeBase64(bytes)).toBe(encoded);
      expect(decodeBase64(encoded)).toEqual(bytes);
    }
  });

  it("matches Node's Buffer on random bytes of every length up to 70 and one long buffer", () => {
    const random = seededRandom(7);
    const lengths = [...Array.from({ length: 71 }, (_, i) => i), 100_003];
    for (const length of lengths) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(random() * 256));
      const encoded = encodeBase64(bytes);
      expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
      expect(decodeBase64(encoded)).toEqual(bytes);
    }
  });

  it('writes float32 little-endian whatever the host order, bit-exact for special values', () => {
    // 1.0f is 0x3f800000: little-endian bytes 00 00 80 3f.
    expect(encodeFloat32LE(Float32Array.of(1))).toBe(Buffer.from([0, 0, 0x80, 0x3f]).toString('base64'));
    const values = Float32Array.of(-0, 1e-45, -3.4028234663852886e38, 0.1, Math.PI, 1.1754942e-38);
    const back = new Float32Array(values.length);
    decodeFloat32LEInto(encodeFloat32LE(values), back);
    expect(bits(back)).toEqual(bits(values));
    // A view at an offset encodes only its own elements.
    const view = values.subarray(2, 4);
    expect(encodeFloat32LE(view)).toBe(encodeFloat32LE(Float32Array.of(values[2], values[3])));
  });

  it.each([
    ['a character outside the alphabet', 'Zm9*', /invalid base64 character '\*' at offset 3/],
    ['whitespace', 'Zm9v Zm9v', /not a multiple of 4/],
    ['the URL-safe alphabet', 'Zm9-', /invalid base64 character '-'/],
    ['padding in the middle', 'Zg==Zm9v', /invalid base64 character '='/],
    ['three padding characters', 'Z===', /invalid base64 character '='/],
    ['a non-ASCII character', 'Zm9\u00e9', /U\+00e9/],
  ])('rejects %s', (_name, text, message) => {
    expect(() => decodeBase64(text)).toThrow(Base64Error);
    expect(() => decodeBase64(text)).toThrow(message);
  });
});

describe('token counts', () => {
  it('replaces a stored count that lies with the cl100k count of the text, and writes the true count', () => {
    const json = validJson();
    json.nodes[0].text = 'Cinderella went to the ball in a dress of silver and gold.';
    json.nodes[0].tokens = 999;
    json.nodes[3].tokens = 0;
    const tree = parseTree(json);
    const truth = countTokens(json.nodes[0].text);
    expect(truth).toBeGreaterThan(10);
    expect(tree.nodes[0].tokens).toBe(truth);
    expect(tree.nodes[3].tokens).toBe(countTokens('alpha beta'));
    tree.nodes.forEach((node) => expect(node.tokens).toBe(countTokens(node.text)));
    expect(JSON.parse(serializeTree(tree)).nodes[0].tokens).toBe(truth);
  });

  it("replaces the official tree's stored o200k counts by tiktoken's cl100k counts", () => {
    const stored = (JSON.parse(OFFICIAL_TREE) as Json).nodes.map((n: Json) => n.tokens as number);
    const tree = parseTree(OFFICIAL_TREE);
    expect(tree.nodes.map((n) => n.tokens)).toEqual(TIKTOKEN_COUNTS.officialTree.map((n) => n.tokens));
    // The file's counts are another tokenizer's: most nodes differ, so the replacement is visible.
    expect(tree.nodes.filter((n, i) => n.tokens !== stored[i]).length).toBeGreaterThanOrEqual(20);
  });
});

describe('serializeTree / parseTree round trip', () => {
  it('round-trips a tree bit-exactly, from number arrays and from base64', () => {
    const fromNumbers = parseTree(validJson());
    const written = serializeTree(fromNumbers);
    expect(JSON.parse(written).nodes[0].embedding).toBe(encodeFloat32LE(Float32Array.of(1, 0, 0)));
    const fromBase64 = parseTree(written);
    expectSameTree(fromBase64, fromNumbers);
    expect(serializeTree(fromBase64)).toBe(written);
    expect(fromBase64.nodes[1].source).toEqual({ doc: 'doc-a', start: 6, end: 10, page: 2 });
    expect(fromBase64.nodes[2]).not.toHaveProperty('source');
    expect(fromBase64.summarizer).toEqual({ kind: 'extractive' });
  });

  it('round-trips the official Cinderella tree with every embedding bit-exact', () => {
    const tree = parseTree(OFFICIAL_TREE);
    const raw = JSON.parse(OFFICIAL_TREE);
    expect(bits(tree.nodes[17].embedding)).toEqual(bits(Float32Array.from(raw.nodes[17].embedding)));
    const written = serializeTree(tree);
    expect(written.length).toBeLessThan(OFFICIAL_TREE.length / 2);
    expectSameTree(parseTree(written), tree);
  });

  it('accepts an already parsed value as well as JSON text', () => {
    expectSameTree(parseTree(JSON.stringify(validJson())), parseTree(validJson()));
  });

  it('keeps embedding values that need all 32 bits, including -0 and subnormals', () => {
    const json = validJson();
    json.nodes[0].embedding = [-0, 1e-45, 3.4028234663852886e38];
    const tree = parseTree(json);
    const again = parseTree(serializeTree(tree));
    expect(bits(again.nodes[0].embedding)).toEqual(bits(Float32Array.of(-0, 1e-45, 3.4028234663852886e38)));
  });

  it('stores all embeddings in one flat Float32Array, each node a view at its offset', () => {
    const tree = parseTree(serializeTree(parseTree(validJson())));
    const buffer = tree.nodes[0].embedding.buffer;
    expect(buffer.byteLength).toBe(tree.nodes.length * 3 * 4);
    tree.nodes.forEach((node, i) => {
      expect(node.embedding.buffer).toBe(buffer);
      expect(node.embedding.byteOffset).toBe(i * 3 * 4);
      expect(node.embedding.length).toBe(3);
    });
  });

  it('keeps HTML, script and unusual text verbatim', () => {
    const json = validJson();
    const texts = [
      '<script>alert("x")</script><img src=x onerror=alert(1)>',
      '</p>&amp;&lt; "quotes" \\ back\\slash \u2028\u2029 \u0000',
      'emoji 🦅 and a lone surrogate \ud800',
    ];
    texts.forEach((text, i) => (json.nodes[i].text = text));
    const tree = parseTree(serializeTree(parseTree(json)));
    expect(tree.nodes.slice(0, 3).map((n) => n.text)).toEqual(texts);
  });

  it('keeps unknown primitive params, drops other unknown fields', () => {
    const json = validJson();
    json.params.embedBatch = 32;
    json.params.note = 'tuned';
    json.params.flag = null;
    json.extra = { anything: true };
    json.nodes[0].color = 'red';
    const tree = parseTree(json);
    expect(tree.params).toEqual({ ...DEFAULT_BUILD_PARAMS, embedBatch: 32, note: 'tuned', flag: null });
    expect(tree).not.toHaveProperty('extra');
    expect(tree.nodes[0]).not.toHaveProperty('color');
    expect(parseTree(serializeTree(tree)).params).toEqual(tree.params);
  });

  it('refuses to write a node whose embedding does not match the dimension', () => {
    const tree = parseTree(validJson());
    tree.nodes[4].embedding = new Float32Array(2);
    expect(() => serializeTree(tree)).toThrow(
      'nodes[4].embedding: expected 3 numbers (embedding.dim), got 2',
    );
  });
});

interface HostileCase {
  name: string;
  /** Changes a valid tree in place … */
  mutate?: (t: Json) => void;
  /** … or replaces it. */
  input?: unknown;
  path: string;
  code?: TreeFormatErrorCode;
  message?: RegExp;
}

const nanBase64 = encodeFloat32LE(Float32Array.of(1, Number.NaN, 0));

const HOSTILE: HostileCase[] = [
  { name: 'an array root', input: [], path: '' },
  { name: 'a null root', input: null, path: '' },
  { name: 'a number root', input: 42, path: '' },
  {
    name: 'another format',
    mutate: (t) => void (t.format = 'raptor'),
    path: 'format',
    code: 'UNSUPPORTED_FORMAT',
  },
  {
    name: 'a newer version',
    mutate: (t) => void (t.version = 2),
    path: 'version',
    code: 'UNSUPPORTED_VERSION',
  },
  { name: 'a numeric title', mutate: (t) => void (t.title = 5), path: 'title' },
  {
    name: 'a huge title',
    mutate: (t) => void (t.title = 'x'.repeat(1001)),
    path: 'title',
    code: 'LIMIT_EXCEEDED',
  },
  {
    name: 'a timestamp that is not ISO 8601',
    mutate: (t) => void (t.createdAt = 'yesterday'),
    path: 'createdAt',
  },
  { name: 'dim 0', mutate: (t) => void (t.embedding.dim = 0), path: 'embedding.dim' },
  { name: 'a fractional dim', mutate: (t) => void (t.embedding.dim = 2.5), path: 'embedding.dim' },
  { name: 'a dim as a string', mutate: (t) => void (t.embedding.dim = '3'), path: 'embedding.dim' },
  {
    name: 'an absurd dim',
    mutate: (t) => void (t.embedding.dim = 20_000),
    path: 'embedding.dim',
    code: 'LIMIT_EXCEEDED',
  },
  {
    name: 'a missing embedding model',
    mutate: (t) => void delete t.embedding.model,
    path: 'embedding.model',
  },
  {
    name: 'an unknown summarizer kind',
    mutate: (t) => void (t.summarizer.kind = 'gpt'),
    path: 'summarizer.kind',
  },
  {
    name: 'a negative chunk size',
    mutate: (t) => void (t.params.chunkTokens = -1),
    path: 'params.chunkTokens',
  },
  { name: 'a missing seed', mutate: (t) => void delete t.params.seed, path: 'params.seed' },
  {
    name: 'a threshold above 1',
    mutate: (t) => void (t.params.clusterThreshold = 2),
    path: 'params.clusterThreshold',
  },
  { name: 'a nested unknown param', mutate: (t) => void (t.params.extra = { a: 1 }), path: 'params.extra' },
  {
    name: 'too many params',
    mutate: (t) => {
      for (let i = 0; i < 100; i++) t.params[`p${i}`] = i;
    },
    path: 'params',
    code: 'LIMIT_EXCEEDED',
  },
  { name: 'documents as an object', mutate: (t) => void (t.documents = {}), path: 'documents' },
  {
    name: 'a duplicate document id',
    mutate: (t) => void t.documents.push({ id: 'doc-a', name: 'b', chars: 1 }),
    path: 'documents[1].id',
  },
  {
    name: 'negative document chars',
    mutate: (t) => void (t.documents[0].chars = -1),
    path: 'documents[0].chars',
  },
  { name: 'no nodes', mutate: (t) => void (t.nodes = []), path: 'nodes' },
  {
    name: 'more nodes than the limit (a sparse array, nothing allocated)',
    mutate: (t) => void (t.nodes = new Array(TREE_LIMITS.maxNodes + 1)),
    path: 'nodes',
    code: 'LIMIT_EXCEEDED',
  },
  {
    name: 'nodes × dim beyond the embedding budget',
    mutate: (t) => {
      t.embedding.dim = TREE_LIMITS.maxDim;
      t.nodes = new Array(TREE_LIMITS.maxEmbeddingValues / TREE_LIMITS.maxDim + 1);
    },
    path: 'nodes',
    code: 'LIMIT_EXCEEDED',
  },
  { name: 'a null node', mutate: (t) => void (t.nodes[2] = null), path: 'nodes[2]' },
  { name: 'ids that are not dense', mutate: (t) => void (t.nodes[1].id = 7), path: 'nodes[1].id' },
  { name: 'an id as a string', mutate: (t) => void (t.nodes[1].id = '1'), path: 'nodes[1].id' },
  { name: 'a negative layer', mutate: (t) => void (t.nodes[1].layer = -1), path: 'nodes[1].layer' },
  { name: 'a fractional layer', mutate: (t) => void (t.nodes[1].layer = 0.5), path: 'nodes[1].layer' },
  {
    name: 'a first node that is not a leaf',
    mutate: (t) => void (t.nodes[0].layer = 1),
    path: 'nodes[0].layer',
    message: /first node must be a leaf/,
  },
  {
    name: 'a layer gap',
    mutate: (t) => void (t.nodes[5].layer = 3),
    path: 'nodes[5].layer',
    message: /layer 2 has no nodes/,
  },
  {
    name: 'nodes out of layer order',
    mutate: (t) => void (t.nodes[4].layer = 0),
    path: 'nodes[4].layer',
    message: /ordered by layer/,
  },
  { name: 'a numeric text', mutate: (t) => void (t.nodes[0].text = 1), path: 'nodes[0].text' },
  {
    name: 'a text beyond the length bound',
    mutate: (t) => void (t.nodes[0].text = 'x'.repeat(TREE_LIMITS.maxTextChars + 1)),
    path: 'nodes[0].text',
    code: 'LIMIT_EXCEEDED',
  },
  { name: 'negative tokens', mutate: (t) => void (t.nodes[0].tokens = -1), path: 'nodes[0].tokens' },
  { name: 'fractional tokens', mutate: (t) => void (t.nodes[0].tokens = 2.5), path: 'nodes[0].tokens' },
  { name: 'tokens as a string', mutate: (t) => void (t.nodes[0].tokens = '1'), path: 'nodes[0].tokens' },
  { name: 'missing tokens', mutate: (t) => void delete t.nodes[0].tokens, path: 'nodes[0].tokens' },
  { name: 'missing children', mutate: (t) => void delete t.nodes[3].children, path: 'nodes[3].children' },
  {
    name: 'a leaf with children',
    mutate: (t) => void (t.nodes[1].children = [0]),
    path: 'nodes[1].children',
  },
  {
    name: 'a summary without children',
    mutate: (t) => void (t.nodes[4].children = []),
    path: 'nodes[4].children',
    message: /at least one child/,
  },
  {
    name: 'a child id out of range',
    mutate: (t) => void (t.nodes[3].children = [0, 57]),
    path: 'nodes[3].children[1]',
    message: /^nodes\[3\]\.children\[1\]: id 57 is out of range \(the tree has 6 nodes\)$/,
  },
  {
    name: 'a negative child id',
    mutate: (t) => void (t.nodes[3].children = [-1]),
    path: 'nodes[3].children[0]',
  },
  {
    name: 'a fractional child id',
    mutate: (t) => void (t.nodes[3].children = [0.5]),
    path: 'nodes[3].children[0]',
  },
  {
    name: 'a node that is its own child (cycle)',
    mutate: (t) => void (t.nodes[3].children = [0, 3]),
    path: 'nodes[3].children[1]',
    message: /cycle/,
  },
  {
    name: 'a child above its parent (cycle through two nodes)',
    mutate: (t) => {
      t.nodes[3].children = [5];
    },
    path: 'nodes[3].children[0]',
    message: /not in layer 0/,
  },
  {
    name: 'a child two layers down',
    mutate: (t) => void (t.nodes[5].children = [3, 0]),
    path: 'nodes[5].children[1]',
    message: /node 0 is in layer 0, not one layer down \(1\)/,
  },
  {
    name: 'a child in the same layer',
    mutate: (t) => void (t.nodes[4].children = [3]),
    path: 'nodes[4].children[0]',
    message: /not one layer down/,
  },
  {
    name: 'a duplicate child',
    mutate: (t) => void (t.nodes[3].children = [0, 1, 0]),
    path: 'nodes[3].children[2]',
    message: /duplicate child 0/,
  },
  {
    name: 'a children array longer than the tree',
    mutate: (t) => void (t.nodes[3].children = new Array(1e6).fill(0)),
    path: 'nodes[3].children',
    code: 'LIMIT_EXCEEDED',
  },
  {
    name: 'an embedding of the wrong length',
    mutate: (t) => void (t.nodes[2].embedding = [1, 2]),
    path: 'nodes[2].embedding',
    message: /expected 3 numbers \(embedding\.dim\), got 2/,
  },
  {
    name: 'a NaN in an embedding',
    mutate: (t) => void (t.nodes[2].embedding = [0, Number.NaN, 1]),
    path: 'nodes[2].embedding[1]',
  },
  {
    name: 'an infinity in an embedding',
    mutate: (t) => void (t.nodes[2].embedding = [0, 1, Infinity]),
    path: 'nodes[2].embedding[2]',
  },
  {
    name: 'a value that overflows float32',
    mutate: (t) => void (t.nodes[2].embedding = [0, 1e39, 0]),
    path: 'nodes[2].embedding[1]',
    message: /overflows float32/,
  },
  {
    name: 'a string inside an embedding array',
    mutate: (t) => void (t.nodes[2].embedding = [0, '1', 0]),
    path: 'nodes[2].embedding[1]',
  },
  { name: 'a null embedding', mutate: (t) => void (t.nodes[2].embedding = null), path: 'nodes[2].embedding' },
  {
    name: 'base64 with a bad character',
    mutate: (t) => void (t.nodes[2].embedding = `${encodeFloat32LE(new Float32Array(3)).slice(0, -1)}!`),
    path: 'nodes[2].embedding',
    message: /invalid base64 character '!'/,
  },
  {
    name: 'base64 of the wrong byte length',
    mutate: (t) => void (t.nodes[2].embedding = encodeFloat32LE(new Float32Array(4))),
    path: 'nodes[2].embedding',
    message: /^nodes\[2\]\.embedding: base64 decodes to 16 bytes; embedding\.dim 3 needs 12$/,
  },
  {
    name: 'base64 whose length is not a multiple of 4',
    mutate: (t) => void (t.nodes[2].embedding = 'AAAAAAAAAAAAAAA'),
    path: 'nodes[2].embedding',
  },
  {
    name: 'base64 that decodes to NaN',
    mutate: (t) => void (t.nodes[2].embedding = nanBase64),
    path: 'nodes[2].embedding',
    message: /float 1 is NaN/,
  },
  {
    name: 'a source on a summary',
    mutate: (t) => void (t.nodes[3].source = { doc: 'doc-a', start: 0, end: 1 }),
    path: 'nodes[3].source',
  },
  {
    name: 'a source naming an unlisted document',
    mutate: (t) => void (t.nodes[0].source.doc = 'doc-z'),
    path: 'nodes[0].source.doc',
  },
  {
    name: 'a fractional source end',
    mutate: (t) => void (t.nodes[0].source.end = 4.5),
    path: 'nodes[0].source.end',
  },
  {
    name: 'a source with start > end',
    mutate: (t) => void (t.nodes[0].source = { doc: 'doc-a', start: 9, end: 3 }),
    path: 'nodes[0].source.end',
  },
  { name: 'page 0', mutate: (t) => void (t.nodes[1].source.page = 0), path: 'nodes[1].source.page' },
  { name: 'a null source', mutate: (t) => void (t.nodes[0].source = null), path: 'nodes[0].source' },
];

describe('parseTree rejects hostile and corrupt input', () => {
  it.each(HOSTILE)('$name → $path', ({ mutate, input, path, code = 'INVALID_TREE', message }) => {
    const json = validJson();
    mutate?.(json);
    const error = rejection(mutate ? json : input);
    expect(error.code).toBe(code);
    expect(error.details.path).toBe(path);
    expect(error.message.startsWith(`${path || '(root)'}: `)).toBe(true);
    if (message) expect(error.message).toMatch(message);
  });

  it('rejects text that is not JSON', () => {
    const error = rejection('{"format": "raptor-tree",');
    expect(error.code).toBe('INVALID_JSON');
  });

  it.each([
    ['params', 'params.__proto__', (t: Json) => t.params],
    ['documents[0]', 'documents[0].__proto__', (t: Json) => t.documents[0]],
    ['nodes[4]', 'nodes[4].__proto__', (t: Json) => t.nodes[4]],
    ['the root', '__proto__', (t: Json) => t],
  ])('rejects a __proto__ key in %s without polluting Object.prototype', (_where, path, target) => {
    const text = JSON.stringify(validJson()).replace(
      JSON.stringify(target(validJson())),
      (match) => `{"__proto__":{"polluted":true},${match.slice(1)}`,
    );
    expect(text).toContain('__proto__');
    const error = rejection(text);
    expect(error.details.path).toBe(path);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects a constructor key and ignores inherited fields of a crafted object', () => {
    const withConstructor = validJson();
    withConstructor.summarizer.constructor = { prototype: { polluted: true } };
    expect(rejection(withConstructor).details.path).toBe('summarizer.constructor');
    // Fields that only exist on the prototype are not read: the tree has no own `format`.
    const crafted = Object.create(validJson());
    expect(rejection(crafted).details.path).toBe('format');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
