/** The content-box size of an element, kept up to date by a ResizeObserver. */
import { useEffect, useState, type RefObject } from 'react';

/** Width and height in CSS pixels; both 0 until the element has been measured. */
export interface ElementSize {
  width: number;
  height: number;
}

const UNMEASURED: ElementSize = { width: 0, height: 0 };

/** Re-renders with the element's new size whenever it changes (rounded to whole pixels). */
export function useElementSize(ref: RefObject<Element | null>): ElementSize {
  const [size, setSize] = useState<ElementSize>(UNMEASURED);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      const width = Math.round(box.width);
      const height = Math.round(box.height);
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
