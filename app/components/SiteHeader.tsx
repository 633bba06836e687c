import { type KeyboardEvent, type MouseEvent, useRef, useState } from "react";
import { Link, NavLink } from "react-router";
import type { SiteSummary } from "../catalogue.server";
import { trapTab } from "../lib/focus-trap";
import { SocialLinks } from "./SocialLinks";

const MENU_LINKS = [
  { to: "/", label: "Home" },
  { to: "/now", label: "Now" },
  { to: "/about", label: "About" },
  { to: "/apps", label: "Apps" },
  { to: "/notes", label: "Notes" },
  { to: "/write", label: "Write" },
  { to: "/work", label: "Work" },
  { to: "/contact", label: "Contact" },
] as const;

/** Links that act as buttons must also answer the space bar. */
function pressOnSpace(event: KeyboardEvent<HTMLAnchorElement>) {
  if (event.key === " ") {
    event.preventDefault();
    event.currentTarget.click();
  }
}

/**
 * SH1, SH2: the header and its side menu. The menu is a modal <dialog>: while open it keeps focus
 * inside, Escape closes it and focus returns to the menu button. Without JavaScript the menu button
 * is a plain link to #site-menu and CSS shows the menu as the link's target.
 */
export function SiteHeader({ site }: { site: SiteSummary }) {
  const menuRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLAnchorElement>(null);
  const [open, setOpen] = useState(false);

  const openMenu = (event: MouseEvent) => {
    event.preventDefault();
    menuRef.current?.showModal();
    setOpen(true);
  };
  const closeMenu = (event?: MouseEvent) => {
    event?.preventDefault();
    menuRef.current?.close();
  };

  return (
    <header className="site-header">
      <Link to="/" className="site-name">
        {site.name}
      </Link>
      {/* biome-ignore lint/a11y/useValidAnchor lint/a11y/useSemanticElements: a link so that the menu opens without JavaScript too (CSS :target) */}
      <a
        ref={buttonRef}
        href="#site-menu"
        role="button"
        className="menu-button"
        aria-haspopup="dialog"
        aria-controls="site-menu"
        aria-expanded={open}
        onClick={(event) => (open ? closeMenu(event) : openMenu(event))}
        onKeyDown={pressOnSpace}
      >
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
          <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" />
        </svg>
        Menu
      </a>
      <dialog
        ref={menuRef}
        id="site-menu"
        className="side-menu"
        aria-label="Menu"
        onClose={() => {
          setOpen(false);
          buttonRef.current?.focus();
        }}
        onClick={(event) => event.target === event.currentTarget && closeMenu()}
        onKeyDown={trapTab}
      >
        <div className="side-menu-panel">
          {/* biome-ignore lint/a11y/useValidAnchor lint/a11y/useSemanticElements: a link so that the menu closes without JavaScript too */}
          <a href="#top" role="button" className="close-button" onClick={closeMenu} onKeyDown={pressOnSpace}>
            <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
              <path d="M5 5l14 14M19 5L5 19" stroke="currentColor" strokeWidth="2" />
            </svg>
            Close
          </a>
          <nav aria-label="Site">
            <ul>
              {MENU_LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end onClick={() => closeMenu()}>
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
