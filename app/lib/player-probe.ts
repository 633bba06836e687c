// Asked before the first paint, so a CSS rule hides a blocked host's player boxes before the list can jump.
// Why the host's icon, and no-cors: docs/decisions/players-without-their-host.md.
import { EMBED_ORIGINS } from "../../catalogue/embeds.ts";

export type PlayerHost = keyof typeof EMBED_ORIGINS;

const REACHED = "playersReached";
const OUT_OF_REACH = "playersOutOfReach";

// A query of its own, so that no cached copy answers for a host now out of reach.
export const playerProbeUrl = (host: PlayerHost) => `${EMBED_ORIGINS[host]}/favicon.ico?player-check`;

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

export function earlyPlayerProbe(host: PlayerHost): boolean | undefined {
  const recorded = (key: string) => (document.documentElement.dataset[key] ?? "").split(" ").includes(host);
  if (recorded(REACHED)) return true;
  if (recorded(OUT_OF_REACH)) return false;
  return undefined;
}
