import { describe, expect, it } from 'vitest';
import { isAppNavigation } from '../../src/offline/navigation';

const base = new URL('https://example.org/aerie/');
const nav = (path: string) => isAppNavigation(new URL(path, base), base);

describe('which navigations get the app page from the offline copy', () => {
  it('the app and its own paths do', () => {
    expect(nav('/aerie/')).toBe(true);
    expect(nav('/aerie/index.html')).toBe(true);
    expect(nav('/aerie/?tree=1')).toBe(true);
    expect(nav('/aerie/library')).toBe(true);
  });

  it('a file never does, so a missing model or runtime file stays the host’s 404', () => {
    expect(nav('/aerie/models/aerie-glove-100d/config.json')).toBe(false);
    expect(nav('/aerie/models/missing/')).toBe(false);
    expect(nav('/aerie/ort/ort-wasm-simd-threaded.wasm')).toBe(false);
    expect(nav('/aerie/ort/anything')).toBe(false);
    expect(nav('/aerie/wllama/wllama.wasm')).toBe(false);
    expect(nav('/aerie/assets/index-abc.js')).toBe(false);
    expect(nav('/aerie/notes.txt')).toBe(false);
    expect(nav('/aerie/sw.js')).toBe(false);
  });

  it('nothing outside the app’s base or origin does', () => {
    expect(nav('/elsewhere/')).toBe(false);
    expect(isAppNavigation(new URL('https://other.example/aerie/'), base)).toBe(false);
  });
});
