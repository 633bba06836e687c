import { catalogue, forPage } from "../catalogue.server.ts";
import { MarkdownPage, markdownPageMeta } from "../components/MarkdownPage.tsx";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/about";

export const handle = pageHandle("about");

export function loader() {
  return { page: forPage(catalogue.pages.about) };
}

export const meta: Route.MetaFunction = (args) => markdownPageMeta(args, { type: "profile", person: true });

export default function Page({ loaderData }: Route.ComponentProps) {
  return <MarkdownPage page={loaderData.page} />;
}
