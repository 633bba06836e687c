import { useRouteLoaderData } from "react-router";
import { type IconLinkField, iconLinkKinds } from "../lib/icon-links.ts";
import type { loader as rootLoader } from "../root.tsx";

// Icons are drawn by site.css: an inline SVG in each of the notes list's links made a fifth of its markup.
type Linkable = { name: string } & Partial<Record<IconLinkField, string>>;

/** `labelled`: each label shown beside its icon, where a row has the room. */
export function LinkIcons({ item, labelled = false }: { item: Linkable; labelled?: boolean }) {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  const present = iconLinkKinds({ noteApp: site?.noteApp, blog: site?.blog }).filter((kind) => item[kind.field]);
  if (present.length === 0) return null;
  return (
    <ul className={labelled ? "link-icons labelled" : "link-icons"}>
      {present.map((kind) => (
        <li key={kind.field}>
          <IconLink href={item[kind.field] ?? ""} icon={kind.icon} action={kind.action} name={item.name} />
        </li>
      ))}
    </ul>
  );
}

export function IconLink({ href, icon, action, name }: { href: string; icon: string; action: string; name: string }) {
  return (
    <a href={href} target="_blank" rel="noopener" className={icon} aria-label={`${action}: ${name}`}>
      {/* The visible label: beside the icon in a labelled list, else shown on hover and keyboard focus (site.css). */}
      <span className="icon-label" aria-hidden="true">
        {action}
      </span>
    </a>
  );
}
