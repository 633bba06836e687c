import { embedItems } from "../catalogue.server.ts";
import { EmbedList } from "../components/EmbedList.tsx";
import { Page } from "../components/Page.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/podcast";

export const handle = pageHandle("podcast", { hydrate: true, players: "podcast" });

export function loader() {
  return { episodes: embedItems("podcast") };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Podcast" });

export default function Podcast({ loaderData }: Route.ComponentProps) {
  return (
    <Page className="page" title="Podcast" intro="podcast">
      <EmbedList kind="podcast" items={loaderData.episodes} />
    </Page>
  );
}
