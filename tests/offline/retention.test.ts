import { describe, expect, it } from 'vitest';
import { fromEarlierVersion, retireEarlierVersions } from '../../src/offline/offline-copy';
import { OFFLINE_CACHE } from '../../src/offline/names';
import { retire } from '../../src/offline/retention';
import { fakeCacheStorage } from '../support/fake-cache-storage';

const SCOPE = 'https://example.org/';
const url = (path: string) => new URL(path, SCOPE).href;

/** Installs a version: its files go into the offline copy beside whatever is there (as Workbox does). */
async function install(caches: CacheStorage, files: string[]) {
  const cache = await caches.open(OFFLINE_CACHE);
  for (const f of files) await cache.put(url(f), new Response(f));
}

describe('the offline copy keeps the previous version for tabs still running it', () => {
  it('retire: deletes only what was already left over once', () => {
    const plan = retire(['a', 'b', 'c', 'd'], new Set(['a']), new Set(['c', 'x']));
    expect(plan).toEqual({ remove: ['c'], keep: ['b', 'd'] });
  });

  it('across three versions: v1’s files survive v2’s activation and go at v3’s', async () => {
    const caches = fakeCacheStorage();
    const v1 = ['index.html?__WB_REVISION__=1', 'assets/app-v1.js', 'ort/ort.wasm'];
    const v2 = ['index.html?__WB_REVISION__=2', 'assets/app-v2.js', 'ort/ort.wasm'];
    const v3 = ['index.html?__WB_REVISION__=3', 'assets/app-v3.js', 'ort/ort.wasm'];
    await install(caches, v1);
    await retireEarlierVersions(caches, new Set(v1.map(url)), SCOPE);
    await install(caches, v2);
    const second = await retireEarlierVersions(caches, new Set(v2.map(url)), SCOPE);
    expect(second.remove).toEqual([]);
    expect(second.keep.sort()).toEqual([url('assets/app-v1.js'), url('index.html?__WB_REVISION__=1')]);
    // A tab still on v1 starts a worker after v2 took over: its script is still there.
    const kept = await fromEarlierVersion(caches, new Request(url('assets/app-v1.js')));
    expect(await kept?.text()).toBe('assets/app-v1.js');

    await install(caches, v3);
    await retireEarlierVersions(caches, new Set(v3.map(url)), SCOPE);
    expect(caches.urls(OFFLINE_CACHE).sort()).toEqual(
      [...v3, 'index.html?__WB_REVISION__=2', 'assets/app-v2.js'].map(url).sort(),
    );
    expect(await fromEarlierVersion(caches, new Request(url('assets/app-v1.js')))).toBeUndefined();
  });

  it('finds nothing before the offline copy exists', async () => {
    expect(await fromEarlierVersion(fakeCacheStorage(), new Request(url('assets/x.js')))).toBeUndefined();
  });
});
