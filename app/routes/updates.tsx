import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { SectionIntro } from "../components/SectionIntro.tsx";
import { SignupBox } from "../components/SignupBox.tsx";
import { signupAction } from "../lib/form-actions.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/updates";

export const handle = pageHandle("updates", { hydrate: true });

export const action = signupAction;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Updates" });

/** R12: the sign-up page; a visitor who already signed up is told so. */
export default function Updates({ actionData }: Route.ComponentProps) {
  return (
    <div className="page narrow">
      <Breadcrumb />
      <h1>Updates</h1>
      <SectionIntro section="updates" />
      <p className="signup-known">You're subscribed: updates will reach your inbox. Thank you!</p>
      <SignupBox key={actionData ? "answered" : "new"} result={actionData} />
    </div>
  );
}
