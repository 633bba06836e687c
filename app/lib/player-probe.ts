/**
 * Whether a players' host can be reached, asked before the first paint on the pages that list
 * players: the root puts this script in the head of those pages only (their handle names the
 * host). A blocked host usually answers before the page is painted; a CSS rule then hides the
 * boxes kept for its players, so the list never jumps when the players are left out. EmbedList
 * reads the same answer rather than asking again. Why the host's icon, and no-cors:
 * docs/decisions/players-without-their-host.md.
 */
import { EMBED_ORIGINS } from "../../catalogue/embeds.ts";

export type PlayerHost = keyof typeof EMBED_ORIGINS;

/** The <html> data attributes that record the answers, each a space-separated list of hosts. */
const REACHED = "playersReached";
const OUT_OF_REACH = "playersOutOfReach";

/** The host's icon, with a query of its own so that no cached copy answers for a host now out of reach. */
export const playerProbeUrl = (host: PlayerHost) => `${EMBED_ORIGINS[host]}/favicon.ico?player-check`;

/** The inline script: asks once, stops at the headers, and records the answer on <html>. */
export function playerProbeScript(host: PlayerHost): string {
  return `(() => {
  const html = document.documentElement;
  const probe = new AbortController();
  const note = (key) => { html.dataset[key] = ((html.dataset[key] || "") + " ${host}").trim(); };
  fetch(${JSON.stringify(playerProbeUrl(host))}, { mode: "no-cors", credentials: "omit", signal: probe.signal }).then(
    () => { note(${JSON.stringify(REACHED)}); probe.abort(); },
    () => { if (!probe.signal.aborted) note(${JSON.stringify(OUT_OF_REACH)}); },
  );
})();`;
}

/** What the early probe found; undefined when it has not answered yet or never ran (a page reached by a client-side move). */
export function earlyPlayerProbe(host: PlayerHost): boolean | undefined {
  const recorded = (key: string) => (document.documentElement.dataset[key] ?? "").split(" ").includes(host);
  if (recorded(REACHED)) return true;
  if (recorded(OUT_OF_REACH)) return false;
  return undefined;
}
