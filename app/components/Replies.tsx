import { formatDay } from "../../catalogue/dates.ts";
import type { ShownReply } from "../lib/replies.server.ts";

/** Approved replies, oldest first, each an h-entry replying to the page for IndieWeb readers. */
export function Replies({ replies, postUrl }: { replies: ShownReply[]; postUrl: string }) {
  if (replies.length === 0) return null;
  return (
    <section className="replies" aria-labelledby="replies-title">
      <h2 id="replies-title">Replies</h2>
      <ol>
        {replies.map((reply) => (
          <li key={reply.id} id={`reply-${reply.id}`} className="h-entry">
            <p className="reply-meta">
              {reply.author.url ? (
                <a className="p-author h-card" href={reply.author.url} rel="nofollow ugc">
                  {reply.author.name}
                </a>
              ) : (
                <span className="p-author h-card">{reply.author.name}</span>
              )}{" "}
              ·{" "}
              <a className="u-url" href={reply.sourceUrl ?? `${postUrl}#reply-${reply.id}`} rel="nofollow ugc">
                <time className="dt-published" dateTime={reply.writtenAt}>
                  {formatDay(reply.writtenAt)}
                </time>
              </a>
              <data className="u-in-reply-to" value={postUrl} />
            </p>
            <div className="e-content" dangerouslySetInnerHTML={{ __html: reply.html }} />
          </li>
        ))}
      </ol>
    </section>
  );
}
