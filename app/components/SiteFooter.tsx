import { FEEDS } from "../../catalogue/feeds";
import type { SiteSummary } from "../catalogue.server";
import { SocialLinks } from "./SocialLinks";

export function SiteFooter({ site }: { site: SiteSummary }) {
  return (
    <footer className="site-footer">
      <SocialLinks social={site.social} label="Social links" />
      {/* Plain links: the feeds are files, not screens of the app. */}
      <p>
        Atom feeds: <a href={FEEDS.writings.path}>{FEEDS.writings.title} feed</a> ·{" "}
        <a href={FEEDS.notes.path}>{FEEDS.notes.title} feed</a>
      </p>
      <p>© {site.name}. Sample content for this site; replace it with your own.</p>
    </footer>
  );
}
