import { data, Form } from "react-router";
import { Breadcrumb } from "../components/Breadcrumb.tsx";
import { formRequestContext } from "../lib/form-context.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/updates-unsubscribe";

export const handle = pageHandle("updates");

const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

/** Opening the link changes nothing: a GET only shows the button. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request.url);
  const state = await context.get(formRequestContext).newsletter.checkUnsubscribe(token);
  return data({ token, state }, { status: state === "invalid" ? 400 : 200 });
}

/**
 * RFC 8058 one-click: a mail provider POSTs `List-Unsubscribe=One-Click` to the link from its own
 * servers (server/http.ts lets this path alone through without a same-site Origin); the button
 * below posts the same field. The token in the URL is the credential. Idempotent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  // Only the URL's token counts, so a body in any shape (or none) cannot make this fail.
  const token = tokenOf(request.url);
  const outcome = await context.get(formRequestContext).newsletter.unsubscribe(token);
  return data({ unsubscribed: outcome === "unsubscribed" }, { status: outcome === "unsubscribed" ? 200 : 400 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: "Unsubscribe" }),
  { name: "robots", content: "noindex" },
];

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const invalid = actionData ? !actionData.unsubscribed : loaderData.state === "invalid";
  return (
    <div className="page narrow">
      <Breadcrumb />
      {invalid ? (
        <>
          <h1>This link is not valid</h1>
          <p>Please use the unsubscribe link of a recent update, exactly as it appears in the mail.</p>
        </>
      ) : actionData?.unsubscribed ? (
        <>
          <h1>You're unsubscribed</h1>
          <p role="status">No more updates will be sent to you. You can sign up again at any time.</p>
        </>
      ) : (
        <>
          <h1>Unsubscribe</h1>
          <p>Press the button to stop receiving updates by email.</p>
          <Form method="post" action={`?token=${encodeURIComponent(loaderData.token)}`}>
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <button type="submit" className="primary-button">
              Unsubscribe
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
