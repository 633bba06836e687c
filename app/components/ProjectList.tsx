import { formatDateRange } from "../../catalogue/dates.ts";
import { PageLink } from "./PageLink.tsx";

/** `line` is what the list says under the name: an app's tag line, a job's position. */
type Project = {
  slug: string;
  path: string;
  name: string;
  line: string;
  logo: string;
  startDate: string;
  endDate: string;
};

/** Apps and jobs as a list of logo (100 wide), name, line and dates (an empty end reads Present). */
export function ProjectList({ items }: { items: ReadonlyArray<Project> }) {
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
