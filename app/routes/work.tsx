import { catalogue } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { ProjectList } from "../components/ProjectList";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/work";

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

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Work",
    description: "Where I have worked as a software engineer, and what I did there.",
  });

export default function WorkList({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <Breadcrumb section={{ label: "Work" }} />
      <h1>Work</h1>
      <ProjectList items={loaderData.jobs} />
    </div>
  );
}
