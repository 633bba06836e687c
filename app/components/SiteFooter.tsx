import { SECTIONS } from "../../catalogue/sections.ts";
import { FEEDS } from "../../outputs/linked-files.ts";
import type { SiteSummary } from "../catalogue.server.ts";
import { PageLink } from "./PageLink.tsx";
import { SocialLinks } from "./SocialLinks.tsx";

const FOOTER_LINKS = SECTIONS.filter((section) => section.menu && section.path !== "/");

export function SiteFooter({ site }: { site: SiteSummary }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Sections">
        <ul className="footer-sections">
          {FOOTER_LINKS.map((section) => (
            <li key={section.path}>
              <PageLink to={section.path}>{section.label}</PageLink>
            </li>
          ))}
        </ul>
      </nav>
      <SocialLinks social={site.social} label="Social links" />
      {/* Plain links: the feeds are files, not screens of the app. */}
      <p>
        Atom feeds: <a href={FEEDS.writings.path}>{FEEDS.writings.title} feed</a> ·{" "}
        <a href={FEEDS.notes.path}>{FEEDS.notes.title} feed</a>
      </p>
      <p>
        © {site.name}. {site.footer}
      </p>
    </footer>
  );
}
