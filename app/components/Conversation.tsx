import { formatDay } from "../../catalogue/dates.ts";
import { REMOTE_FOLLOW_PATH } from "../../catalogue/handle.ts";
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

/** The standard remote follow: the reader names their server, which shows its own follow button. */
export function FollowForm({ address, typed }: { address: string; typed?: string }) {
  return (
    <form className="follow-form" method="get" action={REMOTE_FOLLOW_PATH}>
      <label htmlFor="follow-server">
        Follow <strong>{address}</strong> on Mastodon or another fediverse server
      </label>
      <span className="follow-row">
        <input
          id="follow-server"
          name="server"
          type="text"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="mastodon.social"
          defaultValue={typed}
          required
          maxLength={253}
        />
        <button type="submit">Follow</button>
      </span>
    </form>
  );
}
