import { catalogue } from "../catalogue.server";
import { Breadcrumb } from "../components/Breadcrumb";
import { ProjectList } from "../components/ProjectList";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/apps";

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

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Apps", description: "The apps I have built, from idea to the app stores." });

export default function Apps({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <Breadcrumb section={{ label: "Apps" }} />
      <h1>Apps</h1>
      <ProjectList items={loaderData.apps} />
    </div>
  );
}
