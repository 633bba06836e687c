import type { RouterContextProvider } from "react-router";
import { approvedReplies } from "../../services/replies/store.ts";
import { backendIn } from "./form-actions.server.ts";

export type ShownReply = {
  id: number;
  author: { name: string; url: string | null };
  /** Sanitized once when it was received. */
  html: string;
  writtenAt: string;
  /** Where it was written, for a fediverse reply or a webmention. */
  sourceUrl: string | null;
};

/** None while the build prerenders: the host renders a page that has some per request. */
export async function repliesShown(context: Readonly<RouterContextProvider>, path: string): Promise<ShownReply[]> {
  const backend = backendIn(context);
  if (!backend) return [];
  const replies = await approvedReplies(backend.database.db, path);
  return replies.map((reply) => ({
    id: reply.id,
    author: { name: reply.author_name, url: reply.author_url },
    html: reply.html,
    writtenAt: reply.written_at,
    sourceUrl: reply.source_url,
  }));
}
