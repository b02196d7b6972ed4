/**
 * A FAKE of the browser's Cache Storage (in memory), for unit tests of code that keeps files in it: `open`,
 * `has`, `keys`, and a cache's `match` (with `ignoreSearch`), `put`, `delete`, `keys`. Keys are absolute URLs,
 * as in a browser; Node 20's Request and Response carry the entries.
 */
class FakeCache {
  readonly entries = new Map<string, Response>();

  private url(request: RequestInfo | URL): string {
    return typeof request === 'string' ? request : request instanceof URL ? request.href : request.url;
  }

  async match(request: RequestInfo | URL, options: { ignoreSearch?: boolean } = {}) {
    const url = this.url(request);
    const strip = (u: string) => u.split('?')[0];
    for (const [key, response] of this.entries) {
      if (key === url || (options.ignoreSearch && strip(key) === strip(url))) return response.clone();
    }
    return undefined;
  }

  async put(request: RequestInfo | URL, response: Response) {
    this.entries.set(this.url(request), response.clone());
  }

  async delete(request: RequestInfo | URL) {
    return this.entries.delete(this.url(request));
  }

  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

/** The fake Cache Storage; `caches` holds the named caches for assertions. */
export class FakeCacheStorage {
  readonly caches = new Map<string, FakeCache>();

  async open(name: string) {
    let cache = this.caches.get(name);
    if (!cache) this.caches.set(name, (cache = new FakeCache()));
    return cache as unknown as Cache;
  }

  async has(name: string) {
    return this.caches.has(name);
  }

  async delete(name: string) {
    return this.caches.delete(name);
  }

  async keys() {
    return [...this.caches.keys()];
  }

  /** The URLs in cache `name`. */
  urls(name: string): string[] {
    return [...(this.caches.get(name)?.entries.keys() ?? [])];
  }
}

/** The fake typed as the browser's CacheStorage, for functions that take one. */
export function fakeCacheStorage(): FakeCacheStorage & CacheStorage {
  return new FakeCacheStorage() as FakeCacheStorage & CacheStorage;
}
