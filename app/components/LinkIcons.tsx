import { useRouteLoaderData } from "react-router";
import { iconLinkKinds } from "../lib/icon-links.ts";
import type { loader as rootLoader } from "../root.tsx";

/**
 * The icon links of a note or a writing, each shown only when its link is non-empty, each opening
 * in a new tab, named for screen readers and labelled on hover and focus with the names
 * content/site.yaml gives the note app and the blog (app/lib/icon-links.ts).
 * The icons themselves are drawn by site.css (`.icon-…`): the notes list shows a few hundred of
 * these links, and an inline SVG in each one made up a fifth of that page's markup.
 */
type Linkable = {
  name: string;
  twosLink?: string;
  youtubeLink?: string;
  patreonLink?: string;
  link?: string;
  podcastLink?: string;
  mediumLink?: string;
};

export function LinkIcons({ item }: { item: Linkable }) {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  const present = iconLinkKinds({ noteApp: site?.noteApp, blog: site?.blog }).filter((kind) => item[kind.field]);
  if (present.length === 0) return null;
  return (
    <ul className="link-icons">
      {present.map((kind) => (
        <li key={kind.field}>
          <a
            href={item[kind.field]}
            target="_blank"
            rel="noopener"
            className={kind.icon}
            aria-label={`${kind.action}: ${item.name}`}
          >
            {/* The visible label, shown on hover and keyboard focus (site.css). */}
            <span className="icon-label" aria-hidden="true">
              {kind.action}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
