import { Breadcrumb } from "../components/Breadcrumb";
import { SignupBox } from "../components/SignupBox";
import { signupAction } from "../lib/form-actions.server";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/updates";

export const action = signupAction;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Updates",
    description: "Leave your email to hear about new essays, book notes, episodes and apps.",
  });

/** R12: the sign-up page; a visitor who already signed up is told so. */
export default function Updates({ actionData }: Route.ComponentProps) {
  return (
    <div className="page narrow">
      <Breadcrumb section={{ label: "Updates" }} />
      <h1>Updates</h1>
      <p className="lede">New essays, book notes, podcast episodes and apps, now and then, never more than that.</p>
      <p className="signup-known">You're subscribed: updates will reach your inbox. Thank you!</p>
      <SignupBox key={actionData ? "answered" : "new"} result={actionData} />
    </div>
  );
}
