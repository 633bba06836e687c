import type { ReactNode } from "react";

export function DrawnCover({ svg, children }: { svg: string | null; children: ReactNode }) {
  return svg ? <span className="drawn-cover" dangerouslySetInnerHTML={{ __html: svg }} /> : children;
}
