/**
 * NL4, WI4: the icon links of a note or a writing, each shown only when its link is non-empty,
 * each opening in a new tab, named for screen readers and labelled on hover and focus.
 * The icons themselves are drawn by site.css (`.icon-…`): the notes list shows a few hundred of
 * these links, and an inline SVG in each one made up a fifth of that page's markup.
 */
type Linkable = {
  name: string;
  twosLink?: string;
  youtubeLink?: string;
  patreonLink?: string;
  link?: string;
  podcastLink?: string;
  mediumLink?: string;
};

const KINDS = [
  { field: "twosLink", action: "Read on the note app", icon: "icon-note-app" },
  { field: "youtubeLink", action: "Watch the video", icon: "icon-video" },
  { field: "patreonLink", action: "Support on Patreon", icon: "icon-patreon" },
  { field: "link", action: "Buy on Amazon", icon: "icon-shop" },
  { field: "podcastLink", action: "Listen to the podcast", icon: "icon-podcast" },
  { field: "mediumLink", action: "Read on Medium", icon: "icon-medium" },
] as const;

export function LinkIcons({ item }: { item: Linkable }) {
  const present = KINDS.filter((kind) => item[kind.field]);
  if (present.length === 0) return null;
  return (
    <ul className="link-icons">
      {present.map((kind) => (
        <li key={kind.field}>
          <a
            href={item[kind.field]}
            target="_blank"
            rel="noopener"
            className={kind.icon}
            aria-label={`${kind.action}: ${item.name}`}
          >
            {/* The visible label, shown on hover and keyboard focus (site.css). */}
            <span className="icon-label" aria-hidden="true">
              {kind.action}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
