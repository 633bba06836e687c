import { catalogue } from "../catalogue.server";
import { MarkdownPage, markdownPageMeta } from "../components/MarkdownPage";
import type { Route } from "./+types/about";

export function loader() {
  return { page: catalogue.pages.about };
}

export const meta = markdownPageMeta;

export default function Page({ loaderData }: Route.ComponentProps) {
  return <MarkdownPage page={loaderData.page} />;
}
