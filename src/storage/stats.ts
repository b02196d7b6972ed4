/**
 * Size estimates and layer counts of stored trees. The estimate is what the library shows as "size on
 * disk": texts as UTF-8, embeddings at 4 bytes a float, the remaining fields as JSON. Browsers add their own
 * overhead (and Chromium compresses), so it is an estimate, consistent across trees.
 */
import type { NodeRecord, TreeStats } from './schema';

/** Bytes of one float32. */
const FLOAT32_BYTES = 4;
/** UTF-8 lengths by UTF-16 code unit range. */
const ONE_BYTE_LIMIT = 0x80;
const TWO_BYTE_LIMIT = 0x800;
const SURROGATE_START = 0xd800;
const SURROGATE_END = 0xdfff;
const UTF8_BYTES_ASCII = 1;
const UTF8_BYTES_TWO = 2;
const UTF8_BYTES_BMP = 3;
/** A surrogate pair (two code units) is one 4-byte UTF-8 sequence: 2 bytes per code unit. */
const UTF8_BYTES_PER_SURROGATE = 2;

/** The UTF-8 byte length of `text`, without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < ONE_BYTE_LIMIT) bytes += UTF8_BYTES_ASCII;
    else if (c < TWO_BYTE_LIMIT) bytes += UTF8_BYTES_TWO;
    else if (c >= SURROGATE_START && c <= SURROGATE_END) bytes += UTF8_BYTES_PER_SURROGATE;
    else bytes += UTF8_BYTES_BMP;
  }
  return bytes;
}

/** Estimated bytes of one stored node: its text, its embedding and the rest as JSON. */
export function estimateNodeBytes(
  node: Pick<NodeRecord, 'treeId' | 'id' | 'layer' | 'text' | 'tokens' | 'children' | 'embedding' | 'source'>,
): number {
  const rest = JSON.stringify([
    node.treeId,
    node.id,
    node.layer,
    node.tokens,
    node.children,
    node.source ?? null,
  ]);
  return utf8Length(node.text) + node.embedding.length * FLOAT32_BYTES + rest.length;
}

/** Layer counts and the size estimate of a tree's nodes, plus `extraBytes` (its document texts). */
export function computeStats(
  nodes: readonly Parameters<typeof estimateNodeBytes>[0][],
  extraBytes = 0,
): TreeStats {
  const nodesPerLayer: number[] = [];
  let bytes = extraBytes;
  for (const node of nodes) {
    while (nodesPerLayer.length <= node.layer) nodesPerLayer.push(0);
    nodesPerLayer[node.layer]++;
    bytes += estimateNodeBytes(node);
  }
  return { layers: Math.max(0, nodesPerLayer.length - 1), nodesPerLayer, nodeCount: nodes.length, bytes };
}

/** Stats of a tree with no nodes yet. */
export function emptyStats(extraBytes = 0): TreeStats {
  return { layers: 0, nodesPerLayer: [], nodeCount: 0, bytes: extraBytes };
}

/**
 * A copy of `vector` that owns exactly its bytes. A vector that is a view into a larger buffer (a tree parsed
 * from a file, a batch split into rows) would otherwise be stored with the WHOLE buffer by structured clone:
 * n nodes would cost n times the tree's embeddings.
 */
export function ownedVector(vector: Float32Array): Float32Array {
  return vector.byteOffset === 0 && vector.byteLength === vector.buffer.byteLength ? vector : vector.slice();
}
