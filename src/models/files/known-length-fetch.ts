/**
 * A `fetch` for transformers.js that never hands it a body of unknown length. transformers.js reads a
 * response without `Content-Length` (what a server sends when it compresses on the fly) by growing its buffer
 * one network chunk at a time — a new buffer and a full copy per chunk, so reading a 23 MB model costs
 * gigabytes of copying, seconds on two cores. Such a body is read here once, by the browser, and passed on
 * with its length; responses that state their length (and so keep byte-by-byte download progress) pass
 * through untouched.
 */

/** The part of `fetch` transformers.js uses. */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Wraps `fetchFn` so every successful response with a body states its length (see the module comment). */
export function knownLengthFetch(fetchFn: FetchLike): FetchLike {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.ok || !response.body || response.headers.has('content-length')) return response;
    const body = await response.arrayBuffer();
    const headers = new Headers(response.headers);
    // The body is already decoded: its length is what the reader will see.
    headers.delete('content-encoding');
    headers.set('content-length', String(body.byteLength));
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
