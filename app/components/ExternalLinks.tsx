export function ExternalLinks({ links, label }: { links: readonly { label: string; url: string }[]; label: string }) {
  const present = links.filter((link) => link.url);
  if (present.length === 0) return null;
  return (
    <ul className="link-row" aria-label={label}>
      {present.map((link) => (
        <li key={link.label}>
          <a href={link.url} target="_blank" rel="noopener">
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function storeLinks(project: { url: string; iOSUrl: string; androidUrl: string }) {
  return [
    { label: "Website", url: project.url },
    { label: "iOS App Store", url: project.iOSUrl },
    { label: "Google Play", url: project.androidUrl },
  ];
}
