import { Link, useRouteLoaderData } from "react-router";
import { sectionOf } from "../../catalogue/sections.ts";
import { documentTitle } from "../lib/meta.ts";
import type { loader as rootLoader } from "../root.tsx";
import { HomeTiles } from "./HomeTiles.tsx";

/** NF1: shown for any unknown path, with HTTP 404. */
export function NotFound() {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  return (
    <div className="page not-found">
      <title>{documentTitle(site?.name ?? "", "Page Not Found")}</title>
      <meta name="description" content="This page does not exist. Try one of the sections below." />
      <h1>Page Not Found</h1>
      <p>Oops, looks like this page doesn't exist yet.</p>
      <HomeTiles />
      <p>
        Looking for something? <Link to={sectionOf("contact").path}>Contact me</Link>.
      </p>
    </div>
  );
}
