import { useEffect, useState } from "react";
import { Link } from "react-router";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { Embed, type EmbedKind } from "./Embed.tsx";

/** DESIGN §7.8: an embed that has not loaded by then no longer holds up the next one. */
export const EMBED_TIMEOUT_MS = 10_000;

export type EmbedItem = {
  slug: string;
  path: string;
  name: string;
  author: string;
  releaseDate: string;
  embed: string;
};

/**
 * R10, EM1: a list of players that load one at a time, each after the previous one has loaded.
 * The server renders none of them (they start after hydration); without JavaScript each
 * placeholder holds a plain lazy iframe instead.
 */
export function EmbedList({ kind, items }: { kind: EmbedKind; items: readonly EmbedItem[] }) {
  const [loading, setLoading] = useState(-1);
  useEffect(() => setLoading(0), []);
  useEffect(() => {
    if (loading < 0 || loading >= items.length) return;
    const timer = setTimeout(() => setLoading((index) => Math.max(index, loading + 1)), EMBED_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [loading, items.length]);

  return (
    <ul className="embed-list">
      {items.map((item, index) => {
        const title = `${kind === "podcast" ? "Podcast episode" : "Video"}: ${item.name}`;
        return (
          <li key={item.slug}>
            <h2 className="embed-title">
              <Link to={item.path}>{item.name}</Link>
            </h2>
            <p className="meta-line">
              {item.author} · released <time dateTime={item.releaseDate}>{formatMonthYear(item.releaseDate)}</time>
            </p>
            <Embed
              kind={kind}
              src={item.embed}
              title={title}
              load={index <= loading}
              onDone={() => setLoading((current) => Math.max(current, index + 1))}
            />
          </li>
        );
      })}
    </ul>
  );
}
