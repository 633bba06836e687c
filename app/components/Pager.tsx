import { PageLink } from "./PageLink.tsx";

type PagerLink = { to: string; text: string };

type PagerProps = {
  label: string;
  previous: PagerLink | null | undefined;
  next: PagerLink | null | undefined;
  previousLabel: string;
  nextLabel: string;
};

export function Pager({ label, previous, next, previousLabel, nextLabel }: PagerProps) {
  return (
    <nav aria-label={label} className="pager">
      {previous && (
        <PageLink to={previous.to} rel="prev" className="pager-previous">
          <span className="pager-label">{previousLabel}</span> {previous.text}
        </PageLink>
      )}
      {next && (
        <PageLink to={next.to} rel="next" className="pager-next">
          <span className="pager-label">{nextLabel}</span> {next.text}
        </PageLink>
      )}
    </nav>
  );
}
