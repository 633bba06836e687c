/**
 * NL4, WI4: the icon links of a note or a writing, each shown only when its link is non-empty,
 * each opening in a new tab, named for screen readers and labelled on hover and focus.
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
  { field: "twosLink", action: "Read on the note app", icon: "M5 4h14v16H5zM8 8h8M8 12h8M8 16h5" },
  { field: "youtubeLink", action: "Watch the video", icon: "M3 6h18v12H3zM10 9v6l5-3z" },
  { field: "patreonLink", action: "Support on Patreon", icon: "M15 4a5 5 0 110 10 5 5 0 010-10zM4 4h3v16H4z" },
  {
    field: "link",
    action: "Buy on Amazon",
    icon: "M4 6h16l-2 9H6zM6 6L5 3H2M8 20a1 1 0 100-2 1 1 0 000 2zM17 20a1 1 0 100-2 1 1 0 000 2z",
  },
  {
    field: "podcastLink",
    action: "Listen to the podcast",
    icon: "M12 3a3 3 0 013 3v5a3 3 0 01-6 0V6a3 3 0 013-3zM6 11a6 6 0 0012 0M12 17v4",
  },
  { field: "mediumLink", action: "Read on Medium", icon: "M4 5h16v14H4zM7 9l3 6 2-4 2 4 3-6" },
] as const;

export function LinkIcons({ item }: { item: Linkable }) {
  const present = KINDS.filter((kind) => item[kind.field]);
  if (present.length === 0) return null;
  return (
    <ul className="link-icons">
      {present.map((kind) => (
        <li key={kind.field}>
          <a href={item[kind.field]} target="_blank" rel="noopener">
            <span className="visually-hidden">
              {kind.action}: {item.name}
            </span>
            {/* The visible label, shown on hover and keyboard focus (site.css). */}
            <span className="icon-label" aria-hidden="true">
              {kind.action}
            </span>
            <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
              <path d={kind.icon} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
            </svg>
          </a>
        </li>
      ))}
    </ul>
  );
}
