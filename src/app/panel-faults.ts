/**
 * A fault a test can inject into one panel, on the dev server only: `window.__aerieBreakPanel('tree view')`
 * makes that panel throw while it renders until its "Reload this panel" is pressed (React renders a throwing
 * component a second time before it gives up, so a fault that threw once would heal unseen), so a browser test
 * sees its error boundary (PanelBoundary.tsx) take over while the rest of the page stays. In the production build `import.meta.env.DEV` is false, so
 * `PanelFault` renders nothing, the hook is never installed and the bundler drops the code
 * (e2e/tree-switch.spec.ts checks the built page has no such hook).
 */
import { createElement, useSyncExternalStore } from 'react';

declare global {
  interface Window {
    /** Dev server only: the next render of the named panel throws (see panel-faults.ts). */
    __aerieBreakPanel?: (panel: string) => void;
  }
}

/** Panels told to throw while they render. */
const broken = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;

function breakPanel(panel: string): void {
  broken.add(panel);
  version++;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Throws while a test has `panel` broken. */
function DevPanelFault({ panel }: { panel: string }): null {
  useSyncExternalStore(subscribe, () => version);
  if (broken.has(panel)) throw new Error(`a test broke the ${panel} on purpose`);
  return null;
}

if (import.meta.env.DEV && typeof window !== 'undefined') window.__aerieBreakPanel = breakPanel;

/** Renders nothing; on the dev server, throws after `window.__aerieBreakPanel(panel)`. */
export function PanelFault({ panel }: { panel: string }) {
  return import.meta.env.DEV ? createElement(DevPanelFault, { panel }) : null;
}

/** Heals `panel` (its boundary's "Reload this panel"); nothing in the production build. */
export function clearPanelFault(panel: string): void {
  if (import.meta.env.DEV) broken.delete(panel);
}
