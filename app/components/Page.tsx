import type { ReactNode } from "react";
import { useMatches, useRouteLoaderData } from "react-router";
import { breadcrumbOf } from "../lib/page-handle.ts";
import type { loader as rootLoader } from "../root.tsx";
import { PageLink } from "./PageLink.tsx";

type PageProps = {
  className: string;
  as?: "div" | "article";
  /** Left out where the page's own header holds its heading. */
  title?: ReactNode;
  /** The section whose opening words from content/site.yaml follow the heading. */
  intro?: IntroSection;
  children: ReactNode;
};

type IntroSection = "write" | "contact" | "updates" | "notes" | "podcast" | "videos";

export function Page({ className, as: Frame = "div", title, intro, children }: PageProps) {
  return (
    <Frame className={className}>
      <Breadcrumb />
      {title !== undefined && <h1>{title}</h1>}
      {intro && <SectionIntro section={intro} />}
      {children}
    </Frame>
  );
}

export function SectionIntro({ section }: { section: IntroSection }) {
  const html = useRouteLoaderData<typeof rootLoader>("root")?.site.sections[section].intro;
  // Rendered at build time from the owner's own site.yaml.
  return html ? <div className="lede" dangerouslySetInnerHTML={{ __html: html }} /> : null;
}

function Breadcrumb() {
  const crumbs = breadcrumbOf(useMatches());
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index < crumbs.length - 1 ? (
              <PageLink to={crumb.path}>{crumb.name}</PageLink>
            ) : (
              <span aria-current="page">{crumb.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
