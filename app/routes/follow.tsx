import { data, redirect } from "react-router";
import { fediverseAddress, remoteFollowUrl, siteHandle } from "../../catalogue/handle.ts";
import { MESSAGES } from "../../rules/forms.ts";
import { catalogue } from "../catalogue.server.ts";
import { FollowForm } from "../components/FollowForm.tsx";
import { FormError } from "../components/FormParts.tsx";
import { Page } from "../components/Page.tsx";
import { backendIn } from "../lib/form-actions.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import { SITE_URL } from "../lib/site-url.ts";
import type { Route } from "./+types/follow";

export const handle = pageHandle("updates", { perRequest: true });

/** The follow form's answer: off to the reader's server, or the form again with what they typed. */
export function loader({ url, context }: Route.LoaderArgs) {
  const address = fediverseAddress(siteHandle(catalogue.site), SITE_URL);
  const typed = url.searchParams.get("server");
  if (typed === null) return { address, typed: "", refused: false };
  const allowLoopback = backendIn(context)?.config.federationAllowLoopback ?? false;
  const follow = remoteFollowUrl(typed.slice(0, 300), address, { allowLoopback });
  if (follow) throw redirect(follow.href, 303);
  return data({ address, typed: typed.slice(0, 300), refused: true }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Follow on the fediverse", noindex: true });

export default function Follow({ loaderData: { address, typed, refused } }: Route.ComponentProps) {
  return (
    <Page className="page narrow" title="Follow on the fediverse">
      {refused && <FormError message={MESSAGES.serverInvalid} />}
      <FollowForm address={address} typed={typed} />
    </Page>
  );
}
