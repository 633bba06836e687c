import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { PLAYER_PAGE_LABEL, playerPageOf } from "../../catalogue/embeds.ts";
import { Embed, type EmbedKind } from "./Embed.tsx";

/** DESIGN §7.8: an embed that has not loaded by then no longer holds up the next one. */
export const EMBED_TIMEOUT_MS = 10_000;
/** How far below the viewport a player may already start, so it is ready when scrolled to. */
const NEAR_VIEWPORT_MARGIN = "50% 0px";

export type EmbedItem = {
  slug: string;
  path: string;
  name: string;
  author: string;
  releaseDate: string;
  embed: string;
};

/**
 * R10, EM1: a list of players that load one at a time, each after the previous one has loaded,
 * and none before the visitor comes near it: a long list costs nothing below the fold. Every entry
 * shows its title, date and a plain link to the host's page, so a blocked or offline player still
 * leaves a useful list. The server renders no player; without JavaScript each placeholder holds a
 * plain lazy iframe instead.
 */
export function EmbedList({ kind, items }: { kind: EmbedKind; items: readonly EmbedItem[] }) {
  // The first player that has not finished: every one before it has loaded (or given up).
  const [next, setNext] = useState(0);
  // The furthest entry that has come near the viewport; players up to it may start, in order.
  const [reached, setReached] = useState(-1);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const entries = [...(list.current?.children ?? [])];
    const observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) {
          if (change.isIntersecting) setReached((furthest) => Math.max(furthest, entries.indexOf(change.target)));
        }
      },
      { rootMargin: NEAR_VIEWPORT_MARGIN },
    );
    for (const entry of entries) observer.observe(entry);
    return () => observer.disconnect();
  }, []);

  const loading = next <= reached && next < items.length;
  useEffect(() => {
    if (!loading) return;
    const timer = setTimeout(() => setNext((index) => Math.max(index, next + 1)), EMBED_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [loading, next]);

  return (
    <ul className="embed-list" ref={list}>
      {items.map((item, index) => {
        const title = `${kind === "podcast" ? "Podcast episode" : "Video"}: ${item.name}`;
        return (
          <li key={item.slug}>
            <h2 className="embed-title">
              <Link to={item.path} prefetch="intent">
                {item.name}
              </Link>
            </h2>
            <p className="meta-line">
              {item.author} · released <time dateTime={item.releaseDate}>{formatMonthYear(item.releaseDate)}</time> ·{" "}
              <a href={playerPageOf(kind, item.embed)} rel="noopener">
                {PLAYER_PAGE_LABEL[kind]}
              </a>
            </p>
            <Embed
              kind={kind}
              src={item.embed}
              title={title}
              load={index <= Math.min(next, reached)}
              onDone={() => setNext((current) => Math.max(current, index + 1))}
            />
          </li>
        );
      })}
    </ul>
  );
}
