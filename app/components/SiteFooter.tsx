import { FEEDS } from "../../outputs/linked-files.ts";
import type { SiteSummary } from "../catalogue.server.ts";
import { PageLink } from "./PageLink.tsx";
import { SocialLinks } from "./SocialLinks.tsx";

export function SiteFooter({ site }: { site: SiteSummary }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Sections">
        <ul className="footer-sections">
          {site.menu
            .filter((section) => section.path !== "/")
            .map((section) => (
              <li key={section.path}>
                <PageLink to={section.path}>{section.label}</PageLink>
              </li>
            ))}
        </ul>
      </nav>
      <SocialLinks social={site.social} label="Social links" />
      {/* Plain links: the feeds are files, not screens of the app. */}
      <nav aria-label="Feeds">
        Atom feeds:{" "}
        {Object.values(FEEDS).map((feed, index) => (
          <span key={feed.path}>
            {index > 0 && " · "}
            <a href={feed.path}>{feed.title} feed</a>
          </span>
        ))}
      </nav>
      <p>
        ©{" "}
        <a className="h-card" rel="author" href="/">
          {site.name}
        </a>
        . {site.footer}
      </p>
    </footer>
  );
}
