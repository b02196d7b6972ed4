/**
 * Holds back the moment the page learns that Aerie's database has opened: the real database opens (its upgrade
 * runs), but the `success` event of `indexedDB.open('aerie')` reaches the page only when the test releases it.
 * For the races of a slow first open (a busy machine, a large database being cleaned up).
 */
import type { Page } from '@playwright/test';

/** From the next navigation on, every page load of `page` waits for `releaseAerieDb` before its database opens. */
export async function holdAerieDb(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    (window as unknown as { releaseAerieDb: () => void }).releaseAerieDb = release;
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
      const request = open.call(this, name, version);
      if (name !== 'aerie') return request;
      const listen = request.addEventListener.bind(request);
      request.addEventListener = ((
        type: string,
        listener: EventListenerOrEventListenerObject,
        options?: boolean | AddEventListenerOptions,
      ) => {
        if (type !== 'success') return listen(type, listener, options);
        const later = (event: Event) =>
          void held.then(() =>
            typeof listener === 'function' ? listener.call(request, event) : listener.handleEvent(event),
          );
        listen(type, later, options);
      }) as IDBOpenDBRequest['addEventListener'];
      return request;
    };
  });
}

/** Lets the page of `holdAerieDb` hear that its database has opened. */
export async function releaseAerieDb(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { releaseAerieDb: () => void }).releaseAerieDb());
}
