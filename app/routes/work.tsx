import { catalogue } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { ProjectList } from "../components/ProjectList";
import { pageMeta } from "../lib/meta";
import { pageHandle } from "../lib/page-handle";
import type { Route } from "./+types/work";

export const handle = pageHandle("work");

export function loader() {
  return {
    jobs: catalogue.work.map(({ slug, path, name, logo, startDate, endDate, position }) => ({
      slug,
      path,
      name,
      line: position,
      logo,
      startDate,
      endDate,
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Work" });

export default function WorkList({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <Breadcrumb />
      <h1>Work</h1>
      <ProjectList items={loaderData.jobs} />
    </div>
  );
}
