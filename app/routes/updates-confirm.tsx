import { data, Form } from "react-router";
import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { SignupBox } from "../components/SignupBox.tsx";
import { signupAction } from "../lib/form-actions.server.ts";
import { formRequestContext } from "../lib/form-context.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/updates-confirm";

export const handle = pageHandle("updates");

const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

/** Opening the link confirms nothing (mail scanners open links): it only says whether the button will work. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request.url);
  const state = await context.get(formRequestContext).newsletter.checkConfirm(token);
  return data({ token, state }, { status: state === "invalid" ? 400 : 200 });
}

/** The button confirms; the sign-up box shown beside an expired link posts here too. */
export async function action(args: Route.ActionArgs) {
  // A body that is not a form (a hand-made request) is an empty form: the URL's token still counts.
  const form = await args.request
    .clone()
    .formData()
    .catch(() => new FormData());
  if (form.has("email")) return signupAction(args as unknown as Parameters<typeof signupAction>[0]);
  const token = String(form.get("token") ?? tokenOf(args.request.url));
  const outcome = await args.context.get(formRequestContext).newsletter.confirm(token);
  return data({ confirmed: outcome === "confirmed" }, { status: outcome === "confirmed" ? 200 : 400 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: "Confirm subscription" }),
  { name: "robots", content: "noindex" },
];

export default function ConfirmSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const confirmed =
    (actionData && "confirmed" in actionData && actionData.confirmed) ||
    (!actionData && loaderData.state === "confirmed");
  const unusable = (actionData && "confirmed" in actionData && !actionData.confirmed) || loaderData.state === "invalid";
  const signup = actionData && "fields" in actionData ? actionData : undefined;
  return (
    <div className="page narrow">
      <Breadcrumb />
      {confirmed ? (
        <>
          <h1>You're subscribed</h1>
          <p role="status">Thank you! The next update will reach your inbox.</p>
        </>
      ) : unusable ? (
        <>
          <h1>This link has expired</h1>
          <p>
            The confirmation link is no longer valid: it was already used, or it is more than 7 days old. Sign up again
            and a new one will be sent to you.
          </p>
          <SignupBox key={signup ? "answered" : "new"} result={signup} />
        </>
      ) : (
        <>
          <h1>Confirm your subscription</h1>
          <p>Press the button to start receiving updates by email.</p>
          <Form method="post" action={`?token=${encodeURIComponent(loaderData.token)}`}>
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" className="primary-button">
              Confirm subscription
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
