import { catalogue } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { ProjectList } from "../components/ProjectList";
import { pageMeta } from "../lib/meta";
import { pageHandle } from "../lib/page-handle";
import type { Route } from "./+types/apps";

export const handle = pageHandle("apps");

export function loader() {
  return {
    apps: catalogue.apps.map(({ slug, path, name, logo, startDate, endDate, tagLine }) => ({
      slug,
      path,
      name,
      line: tagLine,
      logo,
      startDate,
      endDate,
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Apps" });

export default function Apps({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <Breadcrumb />
      <h1>Apps</h1>
      <ProjectList items={loaderData.apps} />
    </div>
  );
}
