import { useRouteLoaderData } from "react-router";
import { SHELF_LABELS } from "../../catalogue/shelves.ts";
import type { BookLink, NoteNeighbours } from "../reading.server.ts";
import type { loader as rootLoader } from "../root.tsx";
import { DrawnCover } from "./DrawnCover.tsx";
import { PageLink } from "./PageLink.tsx";
import { Pager } from "./Pager.tsx";
import { ListSection } from "./Section.tsx";

type RelatedNote = BookLink & { drawnCover: string | null };

export function RelatedNotes({ related, previous, next }: NoteNeighbours & { related: RelatedNote[] }) {
  const statsBlurb = useRouteLoaderData<typeof rootLoader>("root")?.site.sections.stats.blurb;
  return (
    <footer className="note-footer">
      <ListSection id="related-notes" title="Related notes" className="related-list" items={related}>
        {(note) => <RelatedEntry key={note.path} note={note} />}
      </ListSection>
      <Pager
        label="Previous and next notes"
        previous={previous && { to: previous.path, text: previous.name }}
        next={next && { to: next.path, text: next.name }}
        previousLabel="Read before"
        nextLabel="Read after"
      />
      <p className="meta-line">
        <PageLink to="/stats">Reading stats</PageLink>
        {statsBlurb && `: ${statsBlurb}`}
      </p>
    </footer>
  );
}

function RelatedEntry({ note }: { note: RelatedNote }) {
  return (
    <li className="related-entry">
      <DrawnCover svg={note.drawnCover}>
        <img src={note.photo} alt="" width={64} height={94} loading="lazy" decoding="async" />
      </DrawnCover>
      <div>
        <h3 className="note-title">
          <PageLink to={note.path}>{note.name}</PageLink>
        </h3>
        <p className="note-author">{note.author}</p>
        <p className="meta-line">
          {note.rating === null ? SHELF_LABELS[note.shelf] : `Rated ${note.rating.toFixed(1)}`}
        </p>
      </div>
    </li>
  );
}
