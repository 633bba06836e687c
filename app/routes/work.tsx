import { catalogue } from "../catalogue.server.ts";
import { Page } from "../components/Page.tsx";
import { ProjectList, projectSummary } from "../components/ProjectList.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/work";

export const handle = pageHandle("work");

export function loader() {
  return { jobs: catalogue.work.map((job) => projectSummary(job, job.position)) };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Work" });

export default function WorkList({ loaderData }: Route.ComponentProps) {
  return (
    <Page className="page" title="Work">
      <ProjectList items={loaderData.jobs} />
    </Page>
  );
}
