import { embedItems } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { EmbedList } from "../components/EmbedList";
import { pageMeta } from "../lib/meta";
import { pageHandle } from "../lib/page-handle";
import type { Route } from "./+types/videos";

export const handle = pageHandle("videos");

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
