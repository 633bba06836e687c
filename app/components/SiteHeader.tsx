import { NavLink } from "react-router";
import type { SiteSummary } from "../catalogue.server.ts";
import { CloseButton, closeDialogAround, dialogProps, openerProps } from "./Dialog.tsx";
import { PageLink } from "./PageLink.tsx";
import { SocialLinks } from "./SocialLinks.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";

export function SiteHeader({ site }: { site: SiteSummary }) {
  return (
    <header className="site-header">
      <PageLink to="/" className="site-name">
        {site.name}
      </PageLink>
      {/* A plain GET form on wide screens, a link to /search on phones; with JavaScript the page shell opens the search dialog from either. */}
      <search>
        <form action="/search" method="get" className="site-search">
          <label>
            <span className="visually-hidden">Search the site</span>
            <input type="search" name="q" placeholder="Search" autoComplete="off" data-search-field="header" />
          </label>
        </form>
      </search>
      <a href="/search" className="search-link icon-button">
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M15.5 15.5L21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">Search</span>
      </a>
      <ThemeToggle />
      <button {...openerProps("site-menu")} className="menu-button">
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
          <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" />
        </svg>
        <span className="menu-label">Menu</span>
      </button>
      <dialog {...dialogProps("site-menu")} className="side-menu" aria-label="Menu">
        <div className="side-menu-panel">
          <CloseButton dialog="site-menu" />
          <nav aria-label="Site">
            <ul>
              {site.menu.map((link) => (
                <li key={link.path}>
                  <NavLink
                    to={link.path}
                    end
                    prefetch="intent"
                    onClick={(event) => closeDialogAround(event.currentTarget)}
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <SocialLinks social={site.social} label="Social links in the menu" />
        </div>
      </dialog>
    </header>
  );
}
