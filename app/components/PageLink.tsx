import { Link, type LinkProps } from "react-router";

// Pointing at a link to a page of the site fetches that page's code and data before the click.
export function PageLink(props: LinkProps) {
  return <Link prefetch="intent" {...props} />;
}
