import { useRouteLoaderData } from "react-router";
import { documentTitle } from "../lib/meta.ts";
import type { loader as rootLoader } from "../root.tsx";
import { HomeTiles } from "./HomeTiles.tsx";

export function NotFound() {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  return (
    <div className="page not-found">
      <title>{documentTitle(site?.name ?? "", "Page Not Found")}</title>
      {site && <meta name="description" content={site.notFound.description} />}
      <h1>Page Not Found</h1>
      <p>Oops, looks like this page doesn't exist yet.</p>
      <HomeTiles />
      {/* The owner's words from site.yaml, rendered at build time; the Contact tile links to contact too. */}
      {site && <div className="not-found-text" dangerouslySetInnerHTML={{ __html: site.notFound.text }} />}
    </div>
  );
}
