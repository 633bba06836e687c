import { embedItems } from "../catalogue.server.ts";
import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { EmbedList } from "../components/EmbedList.tsx";
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
    <div className="page">
      <Breadcrumb />
      <h1>Videos</h1>
      <EmbedList kind="video" items={loaderData.videos} />
    </div>
  );
}
