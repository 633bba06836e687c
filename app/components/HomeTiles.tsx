import { useRouteLoaderData } from "react-router";
import { SECTIONS } from "../../catalogue/sections.ts";
import type { loader as rootLoader } from "../root.tsx";
import { PageLink } from "./PageLink.tsx";

const TILES = SECTIONS.filter((section) => section.tile);

export function HomeTiles() {
  const words = useRouteLoaderData<typeof rootLoader>("root")?.site.sections;
  return (
    <ul className="tiles">
      {TILES.map((section) => (
        <li key={section.path}>
          <PageLink className="tile" to={section.path}>
            <span className="tile-label">{section.label}</span>
            <span className="tile-blurb">{words?.[section.id].blurb}</span>
          </PageLink>
        </li>
      ))}
    </ul>
  );
}
