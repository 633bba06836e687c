import type { SiteSummary } from "../catalogue.server";
import { SocialLinks } from "./SocialLinks";

export function SiteFooter({ site }: { site: SiteSummary }) {
  return (
    <footer className="site-footer">
      <SocialLinks social={site.social} label="Social links" />
      <p>© {site.name}. Sample content for this site; replace it with your own.</p>
    </footer>
  );
}
