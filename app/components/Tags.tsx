export function Tags({ tags }: { tags: readonly string[] }) {
  return (
    <ul className="chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>{tag}</li>
      ))}
    </ul>
  );
}
