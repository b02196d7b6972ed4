/**
 * The browser's offer to install Aerie as an app (Chromium's `beforeinstallprompt`): kept until the person
 * presses "Install Aerie", then shown by the browser. Undefined where the browser makes no offer (already
 * installed, another browser: installing is then in the browser's own menu).
 */
import { useCallback, useEffect, useState } from 'react';

/** Chromium's install offer (not in TypeScript's DOM types). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** A function that shows the browser's install dialog, while the browser offers one. */
export function useInstallPrompt(): (() => void) | undefined {
  const [offer, setOffer] = useState<InstallPromptEvent>();
  useEffect(() => {
    const onOffer = (event: Event) => {
      // Keep the offer for the page's own button instead of the browser's mini-infobar.
      event.preventDefault();
      setOffer(event as InstallPromptEvent);
    };
    const onInstalled = () => setOffer(undefined);
    addEventListener('beforeinstallprompt', onOffer);
    addEventListener('appinstalled', onInstalled);
    return () => {
      removeEventListener('beforeinstallprompt', onOffer);
      removeEventListener('appinstalled', onInstalled);
    };
  }, []);
  const install = useCallback(() => {
    if (!offer) return;
    // An offer can be shown once; the browser fires a new one if the person declines and may install later.
    setOffer(undefined);
    void offer.prompt().catch(() => undefined);
  }, [offer]);
  return offer ? install : undefined;
}
