import type { ReactNode } from "react";

type ListSectionProps<T> = {
  id: string;
  title: string;
  items: readonly T[];
  className?: string;
  ordered?: boolean;
  children: (item: T, index: number) => ReactNode;
};

/** A titled list of a page, left out when it has nothing to list. */
export function ListSection<T>({ id, title, items, className, ordered, children }: ListSectionProps<T>) {
  if (items.length === 0) return null;
  const List = ordered ? "ol" : "ul";
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <List className={className}>{items.map(children)}</List>
    </section>
  );
}

export function TechSection({ tech }: { tech: readonly string[] }) {
  return (
    <ListSection id="tech" title="Tech" className="chips" items={tech}>
      {(name) => <li key={name}>{name}</li>}
    </ListSection>
  );
}
