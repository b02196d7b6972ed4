/**
 * Where "Back to the answer" returns: the citation that was clicked, and how far every scrolled box around it
 * (and the window) was scrolled at that moment, so the answer comes back exactly where the reader left it and
 * the focus returns to the citation.
 */

/** A place in the page to come back to. */
export interface ReturnPoint {
  element: HTMLElement;
  scrolls: [Element, number][];
  windowY: number;
}

/** The return point of `element` as the page is now. */
export function returnPointOf(element: HTMLElement): ReturnPoint {
  const scrolls: [Element, number][] = [];
  for (let el = element.parentElement; el; el = el.parentElement) {
    if (el.scrollHeight > el.clientHeight) scrolls.push([el, el.scrollTop]);
  }
  return { element, scrolls, windowY: window.scrollY };
}

/** Scrolls everything back and gives the focus back to the citation (when it is still in the page). */
export function returnTo(point: ReturnPoint): void {
  for (const [el, top] of point.scrolls) if (el.isConnected) el.scrollTop = top;
  window.scrollTo({ top: point.windowY, behavior: 'instant' });
  if (point.element.isConnected) point.element.focus({ preventScroll: true });
}
