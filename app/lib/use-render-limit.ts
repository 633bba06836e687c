import { type RefObject, useEffect, useRef, useState } from "react";

/** How many more entries to render each time the end of the list comes near the viewport. */
export const RENDER_STEP = 24;

/**
 * Renders a long list only as far as the visitor can see (plus a margin): the first render shows
 * everything, exactly as the prerendered page does; after the list changes (a keystroke, a tag),
 * only the first RENDER_STEP entries are rendered and more follow as the end of the list comes
 * within reach. A keystroke then costs the same with 270 notes or 10,000.
 */
export function useRenderLimit(
  total: number,
  listKey: string,
): { limit: number; sentinel: RefObject<HTMLElement | null> } {
  const [limit, setLimit] = useState(Number.POSITIVE_INFINITY);
  const [renderedKey, setRenderedKey] = useState(listKey);
  const sentinel = useRef<HTMLElement | null>(null);
  if (renderedKey !== listKey) {
    setRenderedKey(listKey);
    setLimit(RENDER_STEP);
  }

  useEffect(() => {
    const element = sentinel.current;
    if (!element || limit >= total) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setLimit((current) => current + RENDER_STEP);
      },
      { rootMargin: "1500px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [limit, total]);

  return { limit, sentinel };
}
