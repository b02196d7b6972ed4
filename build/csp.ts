/**
 * Aerie's Content-Security-Policy, written once for every context: the dev server, `vite preview`, the built
 * app's `<meta>` fallback and the headers file a static host reads. See docs/security.md for why each source
 * is there.
 *
 * A dedicated worker loaded from a same-origin URL is governed by the CSP of its OWN response, not the page's,
 * and the LLM and embedding calls are made from the build worker: so the policy is a response header sent
 * with every file (page, scripts, workers, WASM), and the `<meta>` copy only covers the page on hosts that
 * cannot send headers.
 */

/** The model hub transformers.js downloads from when the user picks a hub model (it redirects to its CDNs). */
export const HUB_SOURCES = ['https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'] as const;

/**
 * Where user-configured endpoints may be, when a deployment does not narrow it: any https origin (OpenAI,
 * Anthropic, OpenRouter, a company gateway…) and local servers on this machine (Ollama, LM Studio, llama.cpp)
 * over plain http (CSP cannot name an IPv6 literal such as [::1]). Plain http to any other host is refused: it would send document text and keys in clear.
 */
export const DEFAULT_ENDPOINT_SOURCES = ['https:', 'http://localhost:*', 'http://127.0.0.1:*'] as const;

/** Path the dev and preview servers take violation reports on when reporting is on (tests). */
export const CSP_REPORT_PATH = '/__aerie/csp-report';

/**
 * The cookie a test's browser context carries, so the server files each violation report under the test it
 * came from (browsers send a same-origin report with its cookies): browser tests running side by side share
 * the servers, and each must hear its own violations, and only its own.
 */
export const CSP_RUN_COOKIE = 'aerie-csp-run';

/** Options of `contentSecurityPolicy`. */
export interface CspOptions {
  /**
   * Origins user-configured endpoints may have (connect-src), e.g. `['https://api.openai.com']`. Default
   * `DEFAULT_ENDPOINT_SOURCES`. Set at build or server start with `AERIE_CSP_CONNECT` (space-separated).
   */
  endpoints?: readonly string[];
  /** Allow the model hub (connect-src). Default true; `AERIE_CSP_HUB=off` turns it off (offline model only). */
  hub?: boolean;
  /** Nonce of the `<style>` elements the dev server injects (dev only; production CSS is files). */
  styleNonce?: string;
  /** Where to POST violation reports (`report-uri`); headers only. */
  reportUri?: string;
  /** `meta`: leave out what a `<meta>` policy cannot carry (frame-ancestors, report-uri, sandbox). */
  delivery?: 'header' | 'meta';
}

/** The policy as `directive → sources`, in the order it is written. */
export function cspDirectives(options: CspOptions = {}): [string, string[]][] {
  const endpoints = options.endpoints ?? DEFAULT_ENDPOINT_SOURCES;
  const hub = options.hub ?? true;
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    // transformers.js compiles ONNX Runtime's WASM ('wasm-unsafe-eval') and imports ORT's .mjs as a blob: URL;
    // llama.cpp's worker (wllama, GGUF models) compiles its WASM too.
    ['script-src', ["'self'", "'wasm-unsafe-eval'", 'blob:']],
    // Workers are the app's own files; ORT's thread workers, llama.cpp's worker and its threads start from blob: URLs.
    ['worker-src', ["'self'", 'blob:']],
    ['connect-src', ["'self'", ...(hub ? HUB_SOURCES : []), ...endpoints]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['style-src', ["'self'", ...(options.styleNonce ? [`'nonce-${options.styleNonce}'`] : [])]],
    ['font-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  if (options.delivery !== 'meta') {
    directives.push(['frame-ancestors', ["'none'"]]);
    if (options.reportUri) directives.push(['report-uri', [options.reportUri]]);
  }
  return directives;
}

/** The policy as one header (or `<meta content>`) value. */
export function contentSecurityPolicy(options: CspOptions = {}): string {
  return cspDirectives(options)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** CSP options from the environment (`AERIE_CSP_CONNECT`, `AERIE_CSP_HUB`), for the config and the headers file. */
export function cspOptionsFromEnv(env: Record<string, string | undefined> = process.env): CspOptions {
  const connect = env.AERIE_CSP_CONNECT?.trim();
  const options: CspOptions = { hub: env.AERIE_CSP_HUB !== 'off' };
  if (connect) options.endpoints = connect.split(/\s+/);
  return options;
}

/**
 * The other security headers every response carries. COOP + COEP make the page cross-origin isolated, so
 * ONNX Runtime may use more than one WASM thread (SharedArrayBuffer).
 */
export const SECURITY_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;
