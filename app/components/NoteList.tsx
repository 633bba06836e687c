import { memo, type SyntheticEvent, useRef, useState } from "react";
import { PrefetchPageLinks, useNavigate } from "react-router";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { SHELF_LABELS } from "../../catalogue/shelves.ts";
import type { SortKey } from "../../catalogue/sort.ts";
import type { NoteSummary } from "../catalogue.server.ts";
import { useServedMarkup } from "../lib/served-markup.ts";
import { useRenderLimit } from "../lib/use-render-limit.ts";
import { LinkIcons } from "./LinkIcons.tsx";
import { PageLink } from "./PageLink.tsx";

/** Covers below the first screenful wait until they are scrolled near. */
const EAGER_COVERS = 4;

type NoteListProps = {
  notes: readonly NoteSummary[];
  sort: SortKey;
  /** Changes whenever the filters change, so the list starts again from its first screenful. */
  listKey: string;
};

export function NoteList({ notes, sort, listKey }: NoteListProps) {
  const { limit, sentinel } = useRenderLimit(notes.length, listKey);
  const served = useServedMarkup(".note-list", listKey);
  if (served !== null) return <ServedList html={served} />;
  return (
    <>
      <ul className="note-list h-feed">
        {notes.slice(0, limit).map((note, index) => (
          <NoteEntry key={note.slug} note={note} sort={sort} eager={index < EAGER_COVERS} />
        ))}
      </ul>
      {limit < notes.length && <span ref={sentinel} className="list-sentinel" />}
    </>
  );
}

const NoteEntry = memo(function NoteEntry({ note, sort, eager }: { note: NoteSummary; sort: SortKey; eager: boolean }) {
  return (
    <li className="note-entry h-entry">
      {/* The cover is clickable through the title's link (site.css): one link per note, not two. */}
      <img src={note.photo} alt="" width={129} height={190} loading={eager ? "eager" : "lazy"} decoding="async" />
      <div>
        <h2 className="note-title">
          <PageLink to={note.path} className="p-name u-url">
            {note.name}
          </PageLink>
        </h2>
        <p className="note-author">{note.author}</p>
        <p className="meta-line">
          {sort === "time" ? (
            `${note.time} min read`
          ) : (
            <time className="dt-published" dateTime={note.date}>
              {formatMonthYear(note.date)}
            </time>
          )}
          {sort === "rating" && note.rating !== null && (
            <>
              {" · "}
              <span className="nowrap">Rated {note.rating.toFixed(1)} / 10</span>
            </>
          )}
          {note.shelf === "did-not-finish" && <span className="shelf-mark"> · {SHELF_LABELS["did-not-finish"]}</span>}
        </p>
        <LinkIcons item={note} />
      </div>
    </li>
  );
});

/** Pointing at a link for this long fetches its page, as PageLink's prefetch does. */
const INTENT_MS = 100;

/** The entries as prerendered: their title links navigate and prefetch as PageLink's do, from one handler. */
function ServedList({ html }: { html: string }) {
  const navigate = useNavigate();
  const [pointed, setPointed] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const titlePath = (event: SyntheticEvent) =>
    event.target instanceof Element ? event.target.closest(".note-title a")?.getAttribute("href") : null;
  const point = (event: SyntheticEvent, delay: number) => {
    const path = titlePath(event);
    clearTimeout(timer.current);
    if (path) timer.current = setTimeout(() => setPointed(path), delay);
  };
  return (
    <>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the clicks come from the links inside, Enter's too. */}
      <ul
        className="note-list h-feed"
        dangerouslySetInnerHTML={{ __html: html }}
        onMouseOver={(event) => point(event, INTENT_MS)}
        onMouseOut={() => clearTimeout(timer.current)}
        onFocus={(event) => point(event, 0)}
        onBlur={() => clearTimeout(timer.current)}
        onClick={(event) => {
          const path = titlePath(event);
          if (!path || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          navigate(path);
        }}
      />
      {pointed && <PrefetchPageLinks page={pointed} />}
    </>
  );
}
