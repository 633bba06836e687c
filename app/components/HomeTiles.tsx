import { Link, useRouteLoaderData } from "react-router";
import { SECTIONS } from "../../catalogue/sections.ts";
import type { loader as rootLoader } from "../root.tsx";

const TILES = SECTIONS.filter((section) => section.tile);

export function HomeTiles() {
  const words = useRouteLoaderData<typeof rootLoader>("root")?.site.sections;
  return (
    <ul className="tiles">
      {TILES.map((section) => (
        <li key={section.path}>
          <Link className="tile" to={section.path} prefetch="intent">
            <span className="tile-label">{section.label}</span>
            <span className="tile-blurb">{words?.[section.id].blurb}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
