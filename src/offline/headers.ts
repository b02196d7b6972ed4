/**
 * Response headers the service worker adds to pages and workers where the host sent none, so a static host
 * that cannot send headers (GitHub Pages, an intranet share) still gets the Content-Security-Policy for every
 * context and cross-origin isolation (COOP + COEP: ONNX Runtime's and llama.cpp's threads). A header the host
 * did send is kept as it is: a deployment that narrows the policy keeps its narrower one.
 *
 * Why only documents and workers: a document's and a dedicated worker's policy (CSP, COEP) come from their own
 * response; every other response (modules, WebAssembly, models) is governed by the context that loads it.
 */

/** Header name → value, e.g. the app's security headers and its policy. */
export type HeaderSet = Readonly<Record<string, string>>;

/** The part of a Request the decision needs. */
export interface RequestKind {
  mode: string;
  destination: string;
}

/** True for requests whose response sets a context's own policy: page navigations and worker scripts. */
export function setsPolicy(request: RequestKind): boolean {
  return (
    request.mode === 'navigate' ||
    request.destination === 'document' ||
    request.destination === 'worker' ||
    request.destination === 'sharedworker'
  );
}

/** Statuses whose response must have no body (`new Response` refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with each header of `headers` it lacks. The same object when it lacks none, or when it cannot be
 * rebuilt (an opaque or error response, whose headers a service worker cannot see anyway).
 */
export function withMissingHeaders(response: Response, headers: HeaderSet): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.type === 'error')
    return response;
  const missing = Object.entries(headers).filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of missing) merged.set(name, value);
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}
