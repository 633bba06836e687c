import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { PLAYER_PAGE_LABEL, playerPageOf } from "../../catalogue/embeds.ts";
import { earlyPlayerProbe, playerProbeUrl } from "../lib/player-probe.ts";
import { Embed, type EmbedKind } from "./Embed.tsx";

/** An embed that has not loaded by then no longer holds up the next one. */
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
 * Whether the players' host can be reached: false when a request to it fails outright (offline, a
 * blocker, a privacy setting, no DNS). A player then could only show an error in its box, so the
 * list leaves the players out. The probe asks for the host's icon: an image, which no browser
 * withholds from a cross-origin no-cors request (its answer is not read, only that one came); it
 * stops at the headers.
 * (`navigator.onLine` is no answer: a browser on a machine without a network link other than
 * loopback says false even when the host is served from that machine.)
 */
function usePlayerHostReachable(kind: EmbedKind): boolean {
  const [reachable, setReachable] = useState(true);
  useEffect(() => {
    // The page's head may have asked already (lib/player-probe.ts).
    const early = earlyPlayerProbe(kind);
    if (early !== undefined) {
      setReachable(early);
      return;
    }
    const probe = new AbortController();
    fetch(playerProbeUrl(kind), {
      mode: "no-cors",
      credentials: "omit",
      signal: probe.signal,
    }).then(
      () => probe.abort(),
      () => {
        if (!probe.signal.aborted) setReachable(false);
      },
    );
    return () => probe.abort();
  }, [kind]);
  return reachable;
}

/**
 * A list of players that load one at a time, each after the previous one has loaded, and none
 * before the visitor comes near it: a long list costs nothing below the fold. Every entry is
 * first its title, date and a plain link to the host's page; the player is an extra below it.
 * When the host cannot be reached the players are left out, so the list stays a list of text
 * entries rather than of empty boxes. The server renders no player; without JavaScript each
 * placeholder holds a plain lazy iframe instead.
 */
export function EmbedList({ kind, items }: { kind: EmbedKind; items: readonly EmbedItem[] }) {
  // The first player that has not finished: every one before it has loaded (or given up).
  const [next, setNext] = useState(0);
  // The furthest entry that has come near the viewport; players up to it may start, in order.
  const [reached, setReached] = useState(-1);
  const list = useRef<HTMLUListElement>(null);
  const hostReachable = usePlayerHostReachable(kind);

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
            {hostReachable && (
              <Embed
                kind={kind}
                src={item.embed}
                title={title}
                load={index <= Math.min(next, reached)}
                onDone={() => setNext((current) => Math.max(current, index + 1))}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
