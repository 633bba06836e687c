import { useRouteLoaderData } from "react-router";
import { SECTIONS } from "../../catalogue/sections.ts";
import type { loader as rootLoader } from "../root.tsx";
import { PageLink } from "./PageLink.tsx";

export function HomeTiles() {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  return (
    <ul className="tiles">
      {site?.tiles.map(({ label, path }) => {
        const id = SECTIONS.find((section) => section.path === path)?.id;
        const words = id && id !== "home" ? (site.sections[id] as { blurb?: string }) : undefined;
        return (
          <li key={path}>
            <PageLink className="tile" to={path}>
              <span className="tile-label">{label}</span>
              {words?.blurb && <span className="tile-blurb">{words.blurb}</span>}
            </PageLink>
          </li>
        );
      })}
    </ul>
  );
}
