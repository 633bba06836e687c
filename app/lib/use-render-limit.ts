import { useEffect, useRef, useState } from "react";

export const RENDER_STEP = 24;

// The first render matches the prerendered page; after a change, a keystroke costs the same at 270 notes or 10,000.
export function useRenderLimit(total: number, listKey: string) {
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
