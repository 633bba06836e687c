import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "../root.tsx";

/** The owner's opening words of a section page (content/site.yaml `sections.<id>.intro`, Markdown). */
export function SectionIntro({ section }: { section: "write" | "contact" | "updates" }) {
  const intro = useRouteLoaderData<typeof rootLoader>("root")?.site.sections[section].intro;
  // Rendered at build time from the owner's own site.yaml.
  return intro ? <div className="lede" dangerouslySetInnerHTML={{ __html: intro }} /> : null;
}
