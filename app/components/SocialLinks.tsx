import type { SiteSummary } from "../catalogue.server.ts";

export function SocialLinks({ social, label }: { social: SiteSummary["social"]; label: string }) {
  return (
    <ul className="social" aria-label={label}>
      {social.map((link) => (
        <li key={link.url}>
          <a href={link.url} rel="noopener me">
            {link.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
