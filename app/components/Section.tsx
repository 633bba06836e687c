import type { ReactNode } from "react";
import { PageLink } from "./PageLink.tsx";

type SectionProps = { id: string; title: string; className?: string; children: ReactNode };

export function Section({ id, title, className, children }: SectionProps) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

type ListSectionProps<T> = {
  id: string;
  title: string;
  items: readonly T[];
  className?: string;
  ordered?: boolean;
  children: (item: T, index: number) => ReactNode;
};

export function ListSection<T>({ id, title, items, className, ordered, children }: ListSectionProps<T>) {
  if (items.length === 0) return null;
  const List = ordered ? "ol" : "ul";
  return (
    <Section id={id} title={title}>
      <List className={className}>{items.map(children)}</List>
    </Section>
  );
}

export function TechSection({ tech }: { tech: readonly string[] }) {
  return (
    <ListSection id="tech" title="Tech" className="chips" items={tech}>
      {(name) => <li key={name}>{name}</li>}
    </ListSection>
  );
}

type RatedBook = { path: string; name: string; author: string; rating: number | null };

export function TopRated({ id, title, books }: { id: string; title: string; books: readonly RatedBook[] }) {
  return (
    <ListSection id={id} title={title} className="top-rated" ordered items={books}>
      {(book) => (
        <li key={book.path}>
          <PageLink to={book.path}>{book.name}</PageLink> <span className="meta-line">by {book.author}</span>{" "}
          <span className="top-rating">{book.rating?.toFixed(1)}</span>
        </li>
      )}
    </ListSection>
  );
}
