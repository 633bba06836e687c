import { embedItems } from "../catalogue.server.ts";
import { EmbedList } from "../components/EmbedList.tsx";
import { Page } from "../components/Page.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/videos";

export const handle = pageHandle("videos", { hydrate: true, players: "video" });

export function loader() {
  return { videos: embedItems("video") };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Videos" });

export default function Videos({ loaderData }: Route.ComponentProps) {
  return (
    <Page className="page" title="Videos" intro="videos">
      <EmbedList kind="video" items={loaderData.videos} />
    </Page>
  );
}
