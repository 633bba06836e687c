import { Link } from "react-router";

export const SECTIONS = [
  { to: "/now", label: "Now", blurb: "What I am focused on these days" },
  { to: "/about", label: "About", blurb: "Who I am and how I got here" },
  { to: "/apps", label: "Apps", blurb: "Things I have built" },
  { to: "/notes", label: "Notes", blurb: "Notes and ratings on the books I read" },
  { to: "/write", label: "Write", blurb: "Short essays" },
  { to: "/work", label: "Work", blurb: "Where I have worked" },
  { to: "/contact", label: "Contact", blurb: "Send me a message" },
] as const;

/** R1: one tile per section of the site. */
export function HomeTiles() {
  return (
    <ul className="tiles">
      {SECTIONS.map((section) => (
        <li key={section.to}>
          <Link className="tile" to={section.to}>
            <span className="tile-label">{section.label}</span>
            <span className="tile-blurb">{section.blurb}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
