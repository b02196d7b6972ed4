/**
 * How many leaf chunks a long text will make, without chunking all of it. Characters per token vary threefold
 * between prose (about 4.5) and unbroken data such as base64 or hex (about 1.4), so a fixed ratio misjudges
 * exactly the texts a warning is for: a 15 MB one-line text was estimated at 37,500 chunks and made 107,400.
 * Here the chunker itself runs on windows spread evenly over the text and the count is scaled up from them.
 */
import { chunkText } from './chunk';
import { DEFAULT_BUILD_PARAMS } from '../types';

/** Windows chunked for an estimate. */
export const ESTIMATE_WINDOWS = 8;
/** Characters per window per budget token: room for about 40 chunks of prose in each window. */
const WINDOW_CHARS_PER_TOKEN = 160;
/** Smallest window, in characters. */
const MIN_WINDOW_CHARS = 16_384;

/**
 * The number of chunks `chunkText(text, { maxTokens })` returns: exact for a text of a few windows, else
 * estimated from `ESTIMATE_WINDOWS` windows spread over it (each window's first and last chunk, which its edges
 * may cut, are left out of the measure). Within a few percent for text of one kind throughout.
 * @param maxTokens the chunk budget. Default 100 (the paper's).
 */
export function estimateChunkCount(
  text: string,
  maxTokens: number = DEFAULT_BUILD_PARAMS.chunkTokens,
): number {
  const windowChars = Math.max(MIN_WINDOW_CHARS, maxTokens * WINDOW_CHARS_PER_TOKEN);
  if (text.length <= 2 * ESTIMATE_WINDOWS * windowChars) return chunkText(text, { maxTokens }).length;
  let spanned = 0;
  let counted = 0;
  for (let w = 0; w < ESTIMATE_WINDOWS; w++) {
    const start = Math.floor(((text.length - windowChars) * w) / (ESTIMATE_WINDOWS - 1));
    const chunks = chunkText(text.slice(start, start + windowChars), { maxTokens });
    if (chunks.length < 3) {
      // Chunks longer than a third of a window (or a window of blank space): count the window as it is.
      spanned += windowChars;
      counted += chunks.length;
      continue;
    }
    // From the start of the second chunk to the start of the last: whole chunks, with the space between them.
    spanned += chunks[chunks.length - 1].start - chunks[1].start;
    counted += chunks.length - 2;
  }
  return spanned === 0 ? 0 : Math.round((text.length * counted) / spanned);
}
