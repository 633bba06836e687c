import { catalogue, forPage } from "../catalogue.server.ts";
import { MarkdownPage, markdownPageMeta } from "../components/MarkdownPage.tsx";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/now";

export const handle = pageHandle("now");

export function loader() {
  return { page: forPage(catalogue.pages.now) };
}

export const meta = markdownPageMeta;

export default function Page({ loaderData }: Route.ComponentProps) {
  return <MarkdownPage page={loaderData.page} />;
}
