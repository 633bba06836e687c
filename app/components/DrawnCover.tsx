import type { ReactNode } from "react";

/** A cover the build drew, its SVG written into the page (`svg`); otherwise the owner's photo (`children`). */
export function DrawnCover({ svg, children }: { svg: string | null; children: ReactNode }) {
  return svg ? <span className="drawn-cover" dangerouslySetInnerHTML={{ __html: svg }} /> : children;
}
