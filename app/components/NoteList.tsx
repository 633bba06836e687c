import { Link } from "react-router";
import { formatMonthYear } from "../../catalogue/dates";
import type { SortKey } from "../../catalogue/sort";
import type { NoteSummary } from "../catalogue.server";
import { LinkIcons } from "./LinkIcons";

/** Covers below the first screenful wait until they are scrolled near. */
const EAGER_COVERS = 4;

/** NL3, NL4: each note with its cover, title, author, and the date or the read time. */
export function NoteList({ notes, sort }: { notes: readonly NoteSummary[]; sort: SortKey }) {
  return (
    <ul className="note-list">
      {notes.map((note, index) => (
        <li key={note.slug} className="note-entry">
          <Link to={note.path} tabIndex={-1} aria-hidden="true">
            <img
              src={note.photo}
              alt=""
              width={129}
              height={190}
              loading={index < EAGER_COVERS ? "eager" : "lazy"}
              decoding="async"
            />
          </Link>
          <div>
            <h2 className="note-title">
              <Link to={note.path}>{note.name}</Link>
            </h2>
            <p className="note-author">{note.author}</p>
            <p className="meta-line">
              {sort === "time" ? (
                `${note.time} min read`
              ) : (
                <time dateTime={note.date}>{formatMonthYear(note.date)}</time>
              )}
            </p>
            <LinkIcons item={note} />
          </div>
        </li>
      ))}
    </ul>
  );
}
