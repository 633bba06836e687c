import { embedItems } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { EmbedList } from "../components/EmbedList";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/videos";

export function loader() {
  return { videos: embedItems("video") };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Videos", description: "Videos about the books I read, newest first." });

export default function Videos({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <Breadcrumb section={{ label: "Videos" }} />
      <h1>Videos</h1>
      <EmbedList kind="video" items={loaderData.videos} />
    </div>
  );
}
