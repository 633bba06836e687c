import { ReadingNow } from "../components/BookShelf.tsx";
import { FollowForm } from "../components/FollowForm.tsx";
import { HomeTiles } from "../components/HomeTiles.tsx";
import { SignupBox } from "../components/SignupBox.tsx";
import { SocialLinks } from "../components/SocialLinks.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { HydrationHandle } from "../lib/page-handle.ts";
import { readingNow } from "../reading.server.ts";
import type { Route } from "./+types/home";

/** The sign-up box answers in place, which needs React. */
export const handle: HydrationHandle = { hydrate: true };

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { person: true });

export { formHeaders as headers, signupAction as action } from "../lib/form-actions.server.ts";
export { signupClientAction as clientAction } from "../lib/form-client.ts";

/** The books being read now, from the notes on the reading shelf: the owner edits no second place. */
export function loader() {
  return { readingNow: readingNow() };
}

export default function Home({ matches, loaderData }: Route.ComponentProps) {
  const { site } = matches[0].loaderData;
  return (
    <div className="page home">
      <h1>{site.name}</h1>
      {/* The owner's own words from site.yaml, rendered at build time. */}
      <div className="lede" dangerouslySetInnerHTML={{ __html: site.lead }} />
      <ReadingNow books={loaderData.readingNow} />
      <HomeTiles />
      <SocialLinks social={site.social} label="Find me elsewhere" />
      <SignupBox />
      <FollowForm address={site.fediverse} />
    </div>
  );
}
