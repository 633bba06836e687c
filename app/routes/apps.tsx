import { catalogue } from "../catalogue.server.ts";
import { Page } from "../components/Page.tsx";
import { ProjectList, projectSummary } from "../components/ProjectList.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/apps";

export const handle = pageHandle("apps");

export function loader() {
  return { apps: catalogue.apps.map((app) => projectSummary(app, app.tagLine)) };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Apps" });

export default function Apps({ loaderData }: Route.ComponentProps) {
  return (
    <Page className="page" title="Apps">
      <ProjectList items={loaderData.apps} />
    </Page>
  );
}
