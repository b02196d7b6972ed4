import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Base64Error,
  decodeBase64,
  decodeBase64Into,
  decodeFloat32LEInto,
  encodeBase64,
  encodeFloat32LE,
} from '../../src/core/base64';
import { AerieError } from '../../src/core/errors';
import { seededRandom } from '../../src/core/random';
import { countTokens } from '../../src/core/text/tokens';
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

  it('names the first bad character of a quantum, printable or not', () => {
    const message = (text: string) => {
      try {
        decodeBase64(text);
      } catch (error) {
        return [(error as Base64Error).message, (error as Base64Error).details];
      }
      throw new Error('accepted');
    };
    expect(message('*m9v')).toEqual(["invalid base64 character '*' at offset 0", { index: 0 }]);
    expect(message('Z*9v')).toEqual(["invalid base64 character '*' at offset 1", { index: 1 }]);
    expect(message('Zm*v')).toEqual(["invalid base64 character '*' at offset 2", { index: 2 }]);
    expect(message('Zm9vZ*==')).toEqual(["invalid base64 character '*' at offset 5", { index: 5 }]);
    expect(message('Zm9vZm*=')).toEqual(["invalid base64 character '*' at offset 6", { index: 6 }]);
    // Space and tilde are printable ASCII (0x20, 0x7e) and quoted; a control character and DEL are not.
    expect(message('Zm9 ')[0]).toBe("invalid base64 character ' ' at offset 3");
    expect(message('Zm9~')[0]).toBe("invalid base64 character '~' at offset 3");
    expect(message('Zm9\u001f')[0]).toBe('invalid base64 character U+001f at offset 3');
    expect(message('Zm9\u007f')[0]).toBe('invalid base64 character U+007f at offset 3');
    expect(message('Zm9vZ')).toEqual(['base64 length 5 is not a multiple of 4', { length: 5 }]);
  });

  it('decodes into a larger buffer at an offset, touching only the decoded bytes', () => {
    for (const [text, bytes] of [
      ['Zm9v', [0x66, 0x6f, 0x6f]],
      ['Zm8=', [0x66, 0x6f]],
      ['Zg==', [0x66]],
    ] as const) {
      const target = new Uint8Array(7).fill(0xee);
      expect(decodeBase64Into(text, target, 2)).toBe(bytes.length);
      expect(Array.from(target)).toEqual([0xee, 0xee, ...bytes, ...new Array(5 - bytes.length).fill(0xee)]);
    }
  });

  it('refuses an offset that does not leave room for the decoded bytes', () => {
    expect(decodeBase64Into('Zm9v', new Uint8Array(5), 2)).toBe(3);
    for (const [capacity, offset] of [
      [5, 3],
      [2, 0],
      [8, -1],
    ]) {
      expect(() => decodeBase64Into('Zm9v', new Uint8Array(capacity), offset)).toThrow(
        expect.objectContaining({
          code: 'INVALID_BASE64',
          message: `3 decoded bytes do not fit at offset ${offset}`,
          details: { length: 3, offset, capacity },
        }),
      );
    }
  });

  it('decodes float32 only into an array of exactly the right length', () => {
    const text = encodeFloat32LE(Float32Array.of(1, 2));
    expect(() => decodeFloat32LEInto(text, new Float32Array(3))).toThrow(
      expect.objectContaining({
        message: 'base64 decodes to 8 bytes, expected 12 (4 × 3 float32)',
        details: { length: 8, expected: 12 },
      }),
    );
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
    // A large tree's rows sit in the scoring kernel's memory (dot-kernel.ts) after its query and score slots;
    // this small one's in a plain buffer.
    const start = tree.nodes[0].embedding.byteOffset;
    expect(buffer.byteLength).toBeGreaterThanOrEqual(start + tree.nodes.length * 3 * 4);
    tree.nodes.forEach((node, i) => {
      expect(node.embedding.buffer).toBe(buffer);
      expect(node.embedding.byteOffset).toBe(start + i * 3 * 4);
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
  /** The whole message the user sees. */
  message: string;
}

const nanBase64 = encodeFloat32LE(Float32Array.of(1, Number.NaN, 0));

const HOSTILE: HostileCase[] = [
  { name: 'an array root', input: [], path: '', message: '(root): expected an object, got an array of 0' },
  { name: 'a null root', input: null, path: '', message: '(root): expected an object, got null' },
  { name: 'a number root', input: 42, path: '', message: '(root): expected an object, got 42' },
  {
    name: 'a function root (not JSON: an object handed over directly)',
    input: () => 1,
    path: '',
    message: '(root): expected an object, got a value of type function',
  },
  {
    name: 'no format field',
    mutate: (t) => void delete t.format,
    path: 'format',
    code: 'UNSUPPORTED_FORMAT',
    message: 'format: expected "raptor-tree", got nothing (the field is missing)',
  },
  {
    name: 'another format',
    mutate: (t) => void (t.format = 'raptor'),
    path: 'format',
    code: 'UNSUPPORTED_FORMAT',
    message: 'format: expected "raptor-tree", got the string "raptor"',
  },
  {
    name: 'a newer version',
    mutate: (t) => void (t.version = 2),
    path: 'version',
    code: 'UNSUPPORTED_VERSION',
    message: 'version: this app reads version 1, got 2',
  },
  {
    name: 'a numeric title',
    mutate: (t) => void (t.title = 5),
    path: 'title',
    message: 'title: expected a string, got 5',
  },
  {
    name: 'a huge title',
    mutate: (t) => void (t.title = 'x'.repeat(1001)),
    path: 'title',
    code: 'LIMIT_EXCEEDED',
    message: 'title: 1001 characters exceed the limit of 1000',
  },
  {
    name: 'a timestamp that is not ISO 8601',
    mutate: (t) => void (t.createdAt = 'yesterday'),
    path: 'createdAt',
    message: 'createdAt: expected an ISO 8601 timestamp, got the string "yesterday"',
  },
  {
    name: 'dim 0',
    mutate: (t) => void (t.embedding.dim = 0),
    path: 'embedding.dim',
    message: 'embedding.dim: expected a positive integer, got 0',
  },
  {
    name: 'a fractional dim',
    mutate: (t) => void (t.embedding.dim = 2.5),
    path: 'embedding.dim',
    message: 'embedding.dim: expected a positive integer, got 2.5',
  },
  {
    name: 'a dim as a string',
    mutate: (t) => void (t.embedding.dim = '3'),
    path: 'embedding.dim',
    message: 'embedding.dim: expected a positive integer, got the string "3"',
  },
  {
    name: 'an absurd dim',
    mutate: (t) => void (t.embedding.dim = 20_000),
    path: 'embedding.dim',
    code: 'LIMIT_EXCEEDED',
    message: 'embedding.dim: 20000 dimensions exceed the limit of 16384',
  },
  {
    name: 'a missing embedding model',
    mutate: (t) => void delete t.embedding.model,
    path: 'embedding.model',
    message: 'embedding.model: expected a string, got nothing (the field is missing)',
  },
  {
    name: 'an unknown summarizer kind',
    mutate: (t) => void (t.summarizer.kind = 'gpt'),
    path: 'summarizer.kind',
    message: 'summarizer.kind: expected "llm" or "extractive", got the string "gpt"',
  },
  {
    name: 'a negative chunk size',
    mutate: (t) => void (t.params.chunkTokens = -1),
    path: 'params.chunkTokens',
    message: 'params.chunkTokens: expected an integer ≥ 1, got -1',
  },
  {
    name: 'a missing seed',
    mutate: (t) => void delete t.params.seed,
    path: 'params.seed',
    message: 'params.seed: expected an integer, got nothing (the field is missing)',
  },
  {
    name: 'a threshold above 1',
    mutate: (t) => void (t.params.clusterThreshold = 2),
    path: 'params.clusterThreshold',
    message: 'params.clusterThreshold: expected a number in [0, 1], got 2',
  },
  {
    name: 'a nested unknown param',
    mutate: (t) => void (t.params.extra = { a: 1 }),
    path: 'params.extra',
    message:
      'params.extra: expected a string, finite number, boolean or null (unknown parameters are kept only then), got an object',
  },
  {
    name: 'too many params',
    mutate: (t) => {
      for (let i = 0; i < 100; i++) t.params[`p${i}`] = i;
    },
    path: 'params',
    code: 'LIMIT_EXCEEDED',
    message: 'params: 107 entries exceed the limit of 100',
  },
  {
    name: 'documents as an object',
    mutate: (t) => void (t.documents = {}),
    path: 'documents',
    message: 'documents: expected an array, got an object',
  },
  {
    name: 'a duplicate document id',
    mutate: (t) => void t.documents.push({ id: 'doc-a', name: 'b', chars: 1 }),
    path: 'documents[1].id',
    message: 'documents[1].id: duplicate document id "doc-a"',
  },
  {
    name: 'negative document chars',
    mutate: (t) => void (t.documents[0].chars = -1),
    path: 'documents[0].chars',
    message: 'documents[0].chars: expected a non-negative integer, got -1',
  },
  {
    name: 'nodes that are not an array',
    mutate: (t) => void (t.nodes = { 0: 'x' }),
    path: 'nodes',
    message: 'nodes: expected an array, got an object',
  },
  {
    name: 'a document without an id',
    mutate: (t) => void delete t.documents[0].id,
    path: 'documents[0].id',
    message: 'documents[0].id: expected a string, got nothing (the field is missing)',
  },
  {
    name: 'a missing timestamp',
    mutate: (t) => void delete t.createdAt,
    path: 'createdAt',
    message: 'createdAt: expected a string, got nothing (the field is missing)',
  },
  {
    name: 'no nodes',
    mutate: (t) => void (t.nodes = []),
    path: 'nodes',
    message: 'nodes: a tree needs at least one node',
  },
  {
    name: 'more nodes than the limit (a sparse array, nothing allocated)',
    mutate: (t) => void (t.nodes = new Array(TREE_LIMITS.maxNodes + 1)),
    path: 'nodes',
    code: 'LIMIT_EXCEEDED',
    message: 'nodes: 1000001 nodes exceed the limit of 1000000',
  },
  {
    name: 'nodes × dim beyond the embedding budget',
    mutate: (t) => {
      t.embedding.dim = TREE_LIMITS.maxDim;
      t.nodes = new Array(TREE_LIMITS.maxEmbeddingValues / TREE_LIMITS.maxDim + 1);
    },
    path: 'nodes',
    code: 'LIMIT_EXCEEDED',
    message: 'nodes: 268451840 embedding values (16385 nodes × 16384) exceed the limit of 268435456',
  },
  {
    name: 'a null node',
    mutate: (t) => void (t.nodes[2] = null),
    path: 'nodes[2]',
    message: 'nodes[2]: expected an object, got null',
  },
  {
    name: 'ids that are not dense',
    mutate: (t) => void (t.nodes[1].id = 7),
    path: 'nodes[1].id',
    message: 'nodes[1].id: expected 1 (ids are dense: nodes[i].id === i), got 7',
  },
  {
    name: 'an id as a string',
    mutate: (t) => void (t.nodes[1].id = '1'),
    path: 'nodes[1].id',
    message: 'nodes[1].id: expected 1 (ids are dense: nodes[i].id === i), got the string "1"',
  },
  {
    name: 'a negative layer',
    mutate: (t) => void (t.nodes[1].layer = -1),
    path: 'nodes[1].layer',
    message: 'nodes[1].layer: expected a non-negative integer, got -1',
  },
  {
    name: 'a fractional layer',
    mutate: (t) => void (t.nodes[1].layer = 0.5),
    path: 'nodes[1].layer',
    message: 'nodes[1].layer: expected a non-negative integer, got 0.5',
  },
  {
    name: 'a first node that is not a leaf',
    mutate: (t) => void (t.nodes[0].layer = 1),
    path: 'nodes[0].layer',
    message: 'nodes[0].layer: the first node must be a leaf (layer 0), got 1',
  },
  {
    name: 'a layer gap',
    mutate: (t) => void (t.nodes[5].layer = 3),
    path: 'nodes[5].layer',
    message: 'nodes[5].layer: layer 3 follows layer 1: layer 2 has no nodes (layers must be contiguous)',
  },
  {
    name: 'nodes out of layer order',
    mutate: (t) => void (t.nodes[4].layer = 0),
    path: 'nodes[4].layer',
    message: 'nodes[4].layer: layer 0 after layer 1: nodes must be ordered by layer',
  },
  {
    name: 'a numeric text',
    mutate: (t) => void (t.nodes[0].text = 1),
    path: 'nodes[0].text',
    message: 'nodes[0].text: expected a string, got 1',
  },
  {
    name: 'a text beyond the length bound',
    mutate: (t) => void (t.nodes[0].text = 'x'.repeat(TREE_LIMITS.maxTextChars + 1)),
    path: 'nodes[0].text',
    code: 'LIMIT_EXCEEDED',
    message: 'nodes[0].text: 100001 characters exceed the limit of 100000',
  },
  {
    name: 'negative tokens',
    mutate: (t) => void (t.nodes[0].tokens = -1),
    path: 'nodes[0].tokens',
    message: 'nodes[0].tokens: expected a non-negative integer, got -1',
  },
  {
    name: 'fractional tokens',
    mutate: (t) => void (t.nodes[0].tokens = 2.5),
    path: 'nodes[0].tokens',
    message: 'nodes[0].tokens: expected a non-negative integer, got 2.5',
  },
  {
    name: 'tokens as a string',
    mutate: (t) => void (t.nodes[0].tokens = '1'),
    path: 'nodes[0].tokens',
    message: 'nodes[0].tokens: expected a non-negative integer, got the string "1"',
  },
  {
    name: 'missing tokens',
    mutate: (t) => void delete t.nodes[0].tokens,
    path: 'nodes[0].tokens',
    message: 'nodes[0].tokens: expected a non-negative integer, got nothing (the field is missing)',
  },
  {
    name: 'missing children',
    mutate: (t) => void delete t.nodes[3].children,
    path: 'nodes[3].children',
    message: 'nodes[3].children: expected an array of node ids, got nothing (the field is missing)',
  },
  {
    name: 'a leaf with children',
    mutate: (t) => void (t.nodes[1].children = [0]),
    path: 'nodes[1].children',
    message: 'nodes[1].children: a leaf (layer 0) has no children, got 1',
  },
  {
    name: 'a summary without children',
    mutate: (t) => void (t.nodes[4].children = []),
    path: 'nodes[4].children',
    message: 'nodes[4].children: a layer-1 node needs at least one child in layer 0',
  },
  {
    name: 'a child id out of range',
    mutate: (t) => void (t.nodes[3].children = [0, 57]),
    path: 'nodes[3].children[1]',
    message: 'nodes[3].children[1]: id 57 is out of range (the tree has 6 nodes)',
  },
  {
    name: 'a negative child id',
    mutate: (t) => void (t.nodes[3].children = [-1]),
    path: 'nodes[3].children[0]',
    message: 'nodes[3].children[0]: id -1 is out of range (the tree has 6 nodes)',
  },
  {
    name: 'a fractional child id',
    mutate: (t) => void (t.nodes[3].children = [0.5]),
    path: 'nodes[3].children[0]',
    message: 'nodes[3].children[0]: expected an integer node id, got 0.5',
  },
  {
    name: 'a node that is its own child (cycle)',
    mutate: (t) => void (t.nodes[3].children = [0, 3]),
    path: 'nodes[3].children[1]',
    message: 'nodes[3].children[1]: node 3 is its own child (a cycle)',
  },
  {
    name: 'a child above its parent (cycle through two nodes)',
    mutate: (t) => {
      t.nodes[3].children = [5];
    },
    path: 'nodes[3].children[0]',
    message:
      'nodes[3].children[0]: node 5 comes after node 3, so it is not in layer 0 (nodes are ordered by layer; a child is exactly one layer down, which also rules out cycles)',
  },
  {
    name: 'a child two layers down',
    mutate: (t) => void (t.nodes[5].children = [3, 0]),
    path: 'nodes[5].children[1]',
    message: 'nodes[5].children[1]: node 0 is in layer 0, not one layer down (1)',
  },
  {
    name: 'a child in the same layer',
    mutate: (t) => void (t.nodes[4].children = [3]),
    path: 'nodes[4].children[0]',
    message: 'nodes[4].children[0]: node 3 is in layer 1, not one layer down (0)',
  },
  {
    name: 'a duplicate child',
    mutate: (t) => void (t.nodes[3].children = [0, 1, 0]),
    path: 'nodes[3].children[2]',
    message: 'nodes[3].children[2]: duplicate child 0',
  },
  {
    name: 'a children array longer than the tree',
    mutate: (t) => void (t.nodes[3].children = new Array(1e6).fill(0)),
    path: 'nodes[3].children',
    code: 'LIMIT_EXCEEDED',
    message: 'nodes[3].children: 1000000 children exceed the limit of 6',
  },
  {
    name: 'an embedding of the wrong length',
    mutate: (t) => void (t.nodes[2].embedding = [1, 2]),
    path: 'nodes[2].embedding',
    message: 'nodes[2].embedding: expected 3 numbers (embedding.dim), got 2',
  },
  {
    name: 'a NaN in an embedding',
    mutate: (t) => void (t.nodes[2].embedding = [0, Number.NaN, 1]),
    path: 'nodes[2].embedding[1]',
    message: 'nodes[2].embedding[1]: expected a finite number, got NaN',
  },
  {
    name: 'an infinity in an embedding',
    mutate: (t) => void (t.nodes[2].embedding = [0, 1, Infinity]),
    path: 'nodes[2].embedding[2]',
    message: 'nodes[2].embedding[2]: expected a finite number, got Infinity',
  },
  {
    name: 'a value that overflows float32',
    mutate: (t) => void (t.nodes[2].embedding = [0, 1e39, 0]),
    path: 'nodes[2].embedding[1]',
    message: 'nodes[2].embedding[1]: 1e+39 overflows float32',
  },
  {
    name: 'a string inside an embedding array',
    mutate: (t) => void (t.nodes[2].embedding = [0, '1', 0]),
    path: 'nodes[2].embedding[1]',
    message: 'nodes[2].embedding[1]: expected a finite number, got the string "1"',
  },
  {
    name: 'a null embedding',
    mutate: (t) => void (t.nodes[2].embedding = null),
    path: 'nodes[2].embedding',
    message: 'nodes[2].embedding: expected an array of 3 numbers or a base64 string, got null',
  },
  {
    name: 'base64 with a bad character',
    mutate: (t) => void (t.nodes[2].embedding = `${encodeFloat32LE(new Float32Array(3)).slice(0, -1)}!`),
    path: 'nodes[2].embedding',
    message: "nodes[2].embedding: invalid base64 character '!' at offset 15",
  },
  {
    name: 'base64 of the wrong byte length',
    mutate: (t) => void (t.nodes[2].embedding = encodeFloat32LE(new Float32Array(4))),
    path: 'nodes[2].embedding',
    message: 'nodes[2].embedding: base64 decodes to 16 bytes; embedding.dim 3 needs 12',
  },
  {
    name: 'base64 whose length is not a multiple of 4',
    mutate: (t) => void (t.nodes[2].embedding = 'AAAAAAAAAAAAAAA'),
    path: 'nodes[2].embedding',
    message: 'nodes[2].embedding: base64 length 15 is not a multiple of 4',
  },
  {
    name: 'base64 that decodes to NaN',
    mutate: (t) => void (t.nodes[2].embedding = nanBase64),
    path: 'nodes[2].embedding',
    message: 'nodes[2].embedding: float 1 is NaN, not a finite number',
  },
  {
    name: 'a source on a summary',
    mutate: (t) => void (t.nodes[3].source = { doc: 'doc-a', start: 0, end: 1 }),
    path: 'nodes[3].source',
    message: 'nodes[3].source: only leaves (layer 0) carry a source; this node is in layer 1',
  },
  {
    name: 'a source naming an unlisted document',
    mutate: (t) => void (t.nodes[0].source.doc = 'doc-z'),
    path: 'nodes[0].source.doc',
    message: 'nodes[0].source.doc: the string "doc-z" is not the id of a listed document (documents[].id)',
  },
  {
    name: 'a fractional source end',
    mutate: (t) => void (t.nodes[0].source.end = 4.5),
    path: 'nodes[0].source.end',
    message: 'nodes[0].source.end: expected an integer ≥ start (0), got 4.5',
  },
  {
    name: 'a source with start > end',
    mutate: (t) => void (t.nodes[0].source = { doc: 'doc-a', start: 9, end: 3 }),
    path: 'nodes[0].source.end',
    message: 'nodes[0].source.end: expected an integer ≥ start (9), got 3',
  },
  {
    name: 'page 0',
    mutate: (t) => void (t.nodes[1].source.page = 0),
    path: 'nodes[1].source.page',
    message: 'nodes[1].source.page: expected a positive integer, got 0',
  },
  {
    name: 'a null source',
    mutate: (t) => void (t.nodes[0].source = null),
    path: 'nodes[0].source',
    message: 'nodes[0].source: expected an object, got null',
  },
  {
    name: 'a long string value, quoted up to 40 characters',
    mutate: (t) => void (t.createdAt = 'x'.repeat(41)),
    path: 'createdAt',
    message: `createdAt: expected an ISO 8601 timestamp, got the string "${'x'.repeat(40)}…"`,
  },
  {
    name: 'a string value of exactly 40 characters, quoted whole',
    mutate: (t) => void (t.createdAt = 'y'.repeat(40)),
    path: 'createdAt',
    message: `createdAt: expected an ISO 8601 timestamp, got the string "${'y'.repeat(40)}"`,
  },
  {
    name: 'a boolean dim',
    mutate: (t) => void (t.embedding.dim = true),
    path: 'embedding.dim',
    message: 'embedding.dim: expected a positive integer, got true',
  },
  {
    name: 'an array for a document',
    mutate: (t) => void (t.documents[0] = [1, 2]),
    path: 'documents[0]',
    message: 'documents[0]: expected an object, got an array of 2',
  },
  {
    name: 'a null embedding block',
    mutate: (t) => void (t.embedding = null),
    path: 'embedding',
    message: 'embedding: expected an object, got null',
  },
  {
    name: 'a missing version',
    mutate: (t) => void delete t.version,
    path: 'version',
    code: 'UNSUPPORTED_VERSION',
    message: 'version: this app reads version 1, got nothing (the field is missing)',
  },
  {
    name: 'a null summarizer',
    mutate: (t) => void (t.summarizer = null),
    path: 'summarizer',
    message: 'summarizer: expected an object, got null',
  },
  {
    name: 'a numeric summarizer model',
    mutate: (t) => void (t.summarizer.model = 5),
    path: 'summarizer.model',
    message: 'summarizer.model: expected a string, got 5',
  },
  {
    name: 'an empty document id',
    mutate: (t) => void (t.documents[0].id = ''),
    path: 'documents[0].id',
    message: 'documents[0].id: a document id must not be empty',
  },
  {
    name: 'a missing document name',
    mutate: (t) => void delete t.documents[0].name,
    path: 'documents[0].name',
    message: 'documents[0].name: expected a string, got nothing (the field is missing)',
  },
  {
    name: 'more documents than the limit (a sparse array)',
    mutate: (t) => void (t.documents = new Array(TREE_LIMITS.maxDocuments + 1)),
    path: 'documents',
    code: 'LIMIT_EXCEEDED',
    message: 'documents: 100001 documents exceed the limit of 100000',
  },
  {
    name: 'a numeric source document',
    mutate: (t) => void (t.nodes[0].source.doc = 1),
    path: 'nodes[0].source.doc',
    message: 'nodes[0].source.doc: expected a string, got 1',
  },
  {
    name: 'a negative source start',
    mutate: (t) => void (t.nodes[0].source.start = -1),
    path: 'nodes[0].source.start',
    message: 'nodes[0].source.start: expected a non-negative integer, got -1',
  },
  {
    name: 'an unknown param with a 1,001-character key',
    mutate: (t) => void (t.params['k'.repeat(1001)] = 1),
    path: 'params',
    code: 'LIMIT_EXCEEDED',
    message: 'params: 1001 characters in a key exceed the limit of 1000',
  },
  {
    name: 'an unknown string param beyond the length bound',
    mutate: (t) => void (t.params.note = 'n'.repeat(1001)),
    path: 'params.note',
    code: 'LIMIT_EXCEEDED',
    message: 'params.note: 1001 characters exceed the limit of 1000',
  },
  {
    name: 'an unknown NaN param (a value not read from JSON)',
    mutate: (t) => void (t.params.x = Number.NaN),
    path: 'params.x',
    message:
      'params.x: expected a string, finite number, boolean or null (unknown parameters are kept only then), got NaN',
  },
  {
    name: 'an unknown infinite param',
    mutate: (t) => void (t.params.x = -Infinity),
    path: 'params.x',
    message:
      'params.x: expected a string, finite number, boolean or null (unknown parameters are kept only then), got -Infinity',
  },
  {
    name: 'an unknown undefined param',
    mutate: (t) => void (t.params.x = undefined),
    path: 'params.x',
    message:
      'params.x: expected a string, finite number, boolean or null (unknown parameters are kept only then), got nothing (the field is missing)',
  },
  ...(
    [
      ['chunkTokens', 'an integer ≥ 1'],
      ['reductionDim', 'an integer in [1, 16384]'],
      ['maxClusterTokens', 'an integer ≥ 1'],
      ['maxLayers', 'an integer ≥ 0'],
      ['summaryTokens', 'an integer ≥ 1'],
      ['seed', 'an integer'],
    ] as const
  ).map(([key, rule]) => ({
    name: `a fractional ${key}`,
    mutate: (t: Json) => void (t.params[key] = 2.5),
    path: `params.${key}`,
    message: `params.${key}: expected ${rule}, got 2.5`,
  })),
  {
    name: 'a negative threshold',
    mutate: (t) => void (t.params.clusterThreshold = -0.1),
    path: 'params.clusterThreshold',
    message: 'params.clusterThreshold: expected a number in [0, 1], got -0.1',
  },
  {
    name: 'a reduction dimension above the limit',
    mutate: (t) => void (t.params.reductionDim = 16385),
    path: 'params.reductionDim',
    message: 'params.reductionDim: expected an integer in [1, 16384], got 16385',
  },
  {
    name: 'a seed that is not a safe integer',
    mutate: (t) => void (t.params.seed = 2 ** 53),
    path: 'params.seed',
    message: 'params.seed: expected an integer, got 9007199254740992',
  },
  {
    name: 'a child id equal to the node count',
    mutate: (t) => void (t.nodes[3].children = [6]),
    path: 'nodes[3].children[0]',
    message: 'nodes[3].children[0]: id 6 is out of range (the tree has 6 nodes)',
  },
  {
    name: 'children as many as the nodes (the limit), one repeated',
    mutate: (t) => void (t.nodes[5].children = [3, 4, 3, 4, 3, 4]),
    path: 'nodes[5].children[2]',
    message: 'nodes[5].children[2]: duplicate child 3',
  },
  {
    name: 'exactly the node limit (a sparse array): the first missing node is named',
    mutate: (t) => void (t.nodes = new Array(TREE_LIMITS.maxNodes)),
    path: 'nodes[0]',
    message: 'nodes[0]: expected an object, got nothing (the field is missing)',
  },
  {
    name: 'exactly the embedding budget (a sparse array): the first missing node is named',
    mutate: (t) => {
      t.embedding.dim = TREE_LIMITS.maxDim;
      t.nodes = new Array(TREE_LIMITS.maxEmbeddingValues / TREE_LIMITS.maxDim);
    },
    path: 'nodes[0]',
    message: 'nodes[0]: expected an object, got nothing (the field is missing)',
  },
  {
    name: 'exactly the document limit (a sparse array): the first missing document is named',
    mutate: (t) => void (t.documents = new Array(TREE_LIMITS.maxDocuments)),
    path: 'documents[0]',
    message: 'documents[0]: expected an object, got nothing (the field is missing)',
  },
  {
    name: 'base64 with a bad character in the first position of a quantum',
    mutate: (t) => void (t.nodes[2].embedding = `AAAA*AAAAAAAAAAA`),
    path: 'nodes[2].embedding',
    message: "nodes[2].embedding: invalid base64 character '*' at offset 4",
  },
];

describe('parseTree rejects hostile and corrupt input', () => {
  it.each(HOSTILE)('$name → $path', ({ mutate, input, path, code = 'INVALID_TREE', message }) => {
    const json = validJson();
    mutate?.(json);
    const error = rejection(mutate ? json : input);
    expect(error.code).toBe(code);
    expect(error.details.path).toBe(path);
    expect(error.message.startsWith(`${path || '(root)'}: `)).toBe(true);
    expect(error.message).toBe(message);
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

describe('parseTree accepts every value at the edge of its range', () => {
  it.each([
    ['a title of exactly 1,000 characters', (t: Json) => void (t.title = 't'.repeat(1000))],
    [
      'dim 1',
      (t: Json) => {
        t.embedding.dim = 1;
        for (const node of t.nodes) node.embedding = [1];
      },
    ],
    ['a timestamp without seconds', (t: Json) => void (t.createdAt = '2024-05-01T10:00Z')],
    [
      'a timestamp with nanoseconds and an offset',
      (t: Json) => void (t.createdAt = '2024-05-01T10:00:00.123456789+02:00'),
    ],
    ['a negative offset', (t: Json) => void (t.createdAt = '2024-05-01T10:00:00-05:30')],
    [
      'the smallest chunk size, threshold 0 and 0 layers',
      (t: Json) => {
        t.params.chunkTokens = 1;
        t.params.clusterThreshold = 0;
        t.params.maxLayers = 0;
      },
    ],
    [
      'threshold 1 and the largest reduction dimension',
      (t: Json) => {
        t.params.clusterThreshold = 1;
        t.params.reductionDim = TREE_LIMITS.maxDim;
      },
    ],
    ['the most negative safe seed', (t: Json) => void (t.params.seed = Number.MIN_SAFE_INTEGER)],
    [
      '100 params in all (the limit)',
      (t: Json) => {
        for (let i = 0; Object.keys(t.params).length < 100; i++) t.params[`p${i}`] = i;
        expect(Object.keys(t.params)).toHaveLength(100);
      },
    ],
    [
      'an unknown param key and value of exactly 1,000 characters',
      (t: Json) => void (t.params['k'.repeat(1000)] = 'v'.repeat(1000)),
    ],
    [
      'page 1 and an empty source span',
      (t: Json) => {
        t.nodes[1].source.page = 1;
        t.nodes[0].source = { doc: 'doc-a', start: 4, end: 4 };
      },
    ],
  ])('%s', (_name, mutate) => {
    const json = validJson();
    mutate(json);
    expect(() => parseTree(json)).not.toThrow();
  });

  it.each([
    'x2024-05-01T10:00:00Z',
    '2024-05-01T10:00:00Zx',
    '2024-05-01T10:00:00.Z',
    '2024-05-01T10:00:00.abcZ',
    '2024-05-01T10:00:00+2:00',
    '2024-05-01T10:00:00+02:0',
    '2024-05-01T10:00:00 02:00',
    '2024-05-01T10:00:00+ab:cd',
  ])('rejects the timestamp %s', (createdAt) => {
    const json = validJson();
    json.createdAt = createdAt;
    expect(rejection(json).details.path).toBe('createdAt');
  });

  it('keeps unknown boolean, null and string params and the summarizer model, through a round trip', () => {
    const json = validJson();
    Object.assign(json.params, { on: true, off: false, none: null, label: 'x' });
    json.summarizer = { kind: 'llm', model: 'gpt-4o-mini' };
    const tree = parseTree(json);
    expect(tree.params).toMatchObject({ on: true, off: false, none: null, label: 'x' });
    expect(tree.summarizer).toEqual({ kind: 'llm', model: 'gpt-4o-mini' });
    const again = parseTree(serializeTree(tree));
    expect(again.params).toEqual(tree.params);
    expect(again.summarizer).toEqual(tree.summarizer);
  });

  it('parses a tree of one leaf and one summary (the smallest tree with a summary)', () => {
    const json = validJson();
    json.nodes = [
      { id: 0, layer: 0, text: 'only', tokens: 1, children: [], embedding: [1, 0, 0] },
      { id: 1, layer: 1, text: 'root', tokens: 1, children: [0], embedding: [1, 0, 0] },
    ];
    expect(parseTree(json).nodes[1].children).toEqual([0]);
  });

  it('copies what it reads: changing the input afterwards leaves the tree alone', () => {
    const json = validJson();
    const tree = parseTree(json);
    json.nodes[3].children.push(2);
    json.nodes[0].embedding[0] = 9;
    expect(tree.nodes[3].children).toEqual([0, 1]);
    expect(tree.nodes[0].embedding[0]).toBe(1);
  });
});

describe('parseTree error details', () => {
  const detailsOf = (mutate: (t: Json) => void) => {
    const json = validJson();
    mutate(json);
    return rejection(json).details;
  };

  it('carry the numbers that explain each error', () => {
    expect(detailsOf((t) => void (t.title = 'x'.repeat(1001)))).toEqual({
      path: 'title',
      count: 1001,
      limit: 1000,
    });
    expect(detailsOf((t) => void (t.version = 3))).toEqual({ path: 'version', version: 3 });
    expect(detailsOf((t) => void (t.nodes[3].children = [0, 57]))).toEqual({
      path: 'nodes[3].children[1]',
      id: 57,
      nodes: 6,
    });
    expect(detailsOf((t) => void (t.nodes[5].children = [3, 0]))).toEqual({
      path: 'nodes[5].children[1]',
      childLayer: 0,
      layer: 2,
    });
    expect(detailsOf((t) => void (t.nodes[2].embedding = [1, 2]))).toEqual({
      path: 'nodes[2].embedding',
      length: 2,
      dim: 3,
    });
    expect(detailsOf((t) => void (t.nodes[2].embedding = encodeFloat32LE(new Float32Array(4))))).toEqual({
      path: 'nodes[2].embedding',
      bytes: 16,
      expected: 12,
    });
    // A base64 error keeps the decoder's details (the offset of the bad character).
    expect(detailsOf((t) => void (t.nodes[2].embedding = 'AAAAAAAAAAAAAAA!'))).toEqual({
      path: 'nodes[2].embedding',
      index: 15,
    });
  });

  it('names the root for text that is not JSON and quotes the parser', () => {
    const error = rejection('{"format": "raptor-tree",');
    expect(error.details).toEqual({ path: '' });
    expect(error.message).toMatch(/^\(root\): not valid JSON \(.+\)$/);
  });

  it('names the forbidden key', () => {
    const text = JSON.stringify(validJson()).replace('"params":{', '"params":{"__proto__":1,');
    expect(rejection(text).message).toBe('params.__proto__: forbidden key');
  });
});

describe('serializeTree writes only what parseTree can read back', () => {
  it('drops unknown params that are not JSON primitives and keeps the rest', () => {
    const tree = parseTree(validJson());
    Object.assign(tree.params, {
      nested: { a: 1 },
      list: [1],
      nan: Number.NaN,
      flag: false,
      none: null,
      n: 3,
    });
    const params = JSON.parse(serializeTree(tree)).params;
    expect(params).toMatchObject({ flag: false, none: null, n: 3 });
    expect(params).not.toHaveProperty('nested');
    expect(params).not.toHaveProperty('list');
    expect(params).not.toHaveProperty('nan');
  });
});
