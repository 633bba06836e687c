import { Link, useRouteLoaderData } from "react-router";
import { sectionOf } from "../../catalogue/sections";
import { documentTitle } from "../lib/meta";
import type { loader as rootLoader } from "../root";
import { HomeTiles } from "./HomeTiles";

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
