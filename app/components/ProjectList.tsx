import { formatDateRange } from "../../catalogue/dates.ts";
import type { App } from "../../catalogue/schema.ts";
import { PageLink } from "./PageLink.tsx";

type Project = Pick<App, "slug" | "path" | "name" | "logo" | "startDate" | "endDate">;

/** `line` is what the list says under the name: an app's tag line, a job's position. */
export function projectSummary({ slug, path, name, logo, startDate, endDate }: Project, line: string) {
  return { slug, path, name, line, logo, startDate, endDate };
}

export function ProjectList({ items }: { items: ReadonlyArray<ReturnType<typeof projectSummary>> }) {
  return (
    <ul className="project-list">
      {items.map((item) => (
        <li key={item.slug}>
          <PageLink to={item.path} className="project-card">
            <img src={item.logo} alt="" width={100} height={100} />
            <span>
              <span className="project-name">{item.name}</span>
              <span className="project-line">{item.line}</span>
              <span className="meta-line">{formatDateRange(item.startDate, item.endDate)}</span>
            </span>
          </PageLink>
        </li>
      ))}
    </ul>
  );
}

export function ProjectHeader({ project, lede, where }: { project: Project; lede: string; where: string }) {
  return (
    <header className="detail-header">
      <img src={project.logo} alt={`${project.name} logo`} width={200} height={200} />
      <div>
        <h1>{project.name}</h1>
        <p className="lede">{lede}</p>
        <p className="meta-line">
          {where} · {formatDateRange(project.startDate, project.endDate)}
        </p>
      </div>
    </header>
  );
}
