import { useEffect, useRef, useState } from "react";
import { formatMonthYear } from "../../catalogue/dates.ts";
import { PLAYER_PAGE_LABEL, playerPageOf } from "../../catalogue/embeds.ts";
import { ratingText } from "../../catalogue/shelves.ts";
import type { embedItems } from "../catalogue.server.ts";
import { earlyPlayerProbe, playerProbeUrl } from "../lib/player-probe.ts";
import { Embed, type EmbedKind } from "./Embed.tsx";
import { IconLink } from "./LinkIcons.tsx";
import { PageLink } from "./PageLink.tsx";

const EMBED_TIMEOUT_MS = 10_000;
const NEAR_VIEWPORT_MARGIN = "50% 0px";
const EAGER_COVERS = 4;

type EmbedItem = ReturnType<typeof embedItems>[number];

// An unreachable host (offline, a blocker) leaves the players out rather than boxes of errors.
// Not `navigator.onLine`: it says false on a machine with only loopback, even for a host served there.
function usePlayerHostReachable(kind: EmbedKind): boolean {
  const [reachable, setReachable] = useState(true);
  useEffect(() => {
    const early = earlyPlayerProbe(kind);
    if (early !== undefined) {
      setReachable(early);
      return;
    }
    const probe = new AbortController();
    fetch(playerProbeUrl(kind), { mode: "no-cors", credentials: "omit", signal: probe.signal }).then(
      () => probe.abort(),
      () => {
        if (!probe.signal.aborted) setReachable(false);
      },
    );
    return () => probe.abort();
  }, [kind]);
  return reachable;
}

// Players load one at a time and only near the viewport, so a long list costs nothing below the fold.
export function EmbedList({ kind, items }: { kind: EmbedKind; items: readonly EmbedItem[] }) {
  const [next, setNext] = useState(0);
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
      {items.map((item, index) => (
        <li key={item.slug} className="embed-entry">
          <img src={item.photo} alt="" width={64} height={94} loading={index < EAGER_COVERS ? "eager" : "lazy"} />
          <div>
            <h2 className="embed-title">
              <PageLink to={item.path}>{item.name}</PageLink>
            </h2>
            <p>{item.author}</p>
            <p className="meta-line">
              <time dateTime={item.releaseDate}>{formatMonthYear(item.releaseDate)}</time>
              {item.rating !== null && ` · Rated ${ratingText(item.rating)}`}
            </p>
            {item.excerpt && <p className="embed-description">{item.excerpt}</p>}
            <p className="link-icons labelled">
              <IconLink
                href={playerPageOf(kind, item.embed)}
                icon={`icon-${kind}`}
                action={PLAYER_PAGE_LABEL[kind]}
                name={item.name}
              />
            </p>
          </div>
          {hostReachable && (
            <Embed
              kind={kind}
              src={item.embed}
              name={item.name}
              load={index <= Math.min(next, reached)}
              onDone={() => setNext((current) => Math.max(current, index + 1))}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
