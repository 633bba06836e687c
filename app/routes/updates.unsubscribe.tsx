import { data } from "react-router";
import { subscriberOfUnsubscribeToken, unsubscribe } from "../../services/newsletter/subscriptions.ts";
import { MailLinkPage, tokenOf, useMailLinkState } from "../components/MailLinkPage.tsx";
import { backendContext, backToPage, formHeaders, readForm } from "../lib/form-actions.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/updates.unsubscribe";

export const handle = pageHandle("updates", { perRequest: true });

// A GET changes nothing: mail scanners open links.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request.url);
  const { database, config } = context.get(backendContext);
  const subscriber = await subscriberOfUnsubscribeToken(database.db, config.secretKey, token);
  const subscribed = subscriber?.status === "pending" || subscriber?.status === "confirmed";
  const state = subscriber ? (subscribed ? "valid" : "unsubscribed") : "invalid";
  return data({ token, state }, { status: state === "invalid" ? 400 : 200 });
}

type UnsubscribeAnswer = { form: "unsubscribe"; outcome: "unsubscribed" | "invalid" | "unreadable" };

// RFC 8058 one-click: mail providers POST here from their own servers, and are answered at once; the URL's token
// is the credential. The page's button posts no field, and its page then shows the outcome from the database.
export async function action({ request, url, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return data<UnsubscribeAnswer>({ form: "unsubscribe", outcome: "unreadable" }, { status: read.status });
  const token = tokenOf(request.url) || (read.values.token ?? "");
  const { database, config } = context.get(backendContext);
  const outcome = await unsubscribe(database.db, config.secretKey, token);
  if (outcome === "unsubscribed" && read.values["List-Unsubscribe"] !== "One-Click") return backToPage(url);
  return data<UnsubscribeAnswer>({ form: "unsubscribe", outcome }, { status: outcome === "unsubscribed" ? 200 : 400 });
}

export const headers = formHeaders;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Unsubscribe", noindex: true });

export default function Unsubscribe({ loaderData }: Route.ComponentProps) {
  const { fetcher, state, unreadable } = useMailLinkState<UnsubscribeAnswer>("unsubscribe", loaderData.state);
  return (
    <MailLinkPage unreadable={unreadable}>
      {state === "invalid" ? (
        <>
          <h1>This link is not valid</h1>
          <p>Please use the unsubscribe link of a recent update, exactly as it appears in the mail.</p>
        </>
      ) : state === "unsubscribed" ? (
        <>
          <h1>You're unsubscribed</h1>
          <p role="status">No more updates will be sent to you. You can sign up again at any time.</p>
        </>
      ) : (
        <>
          <h1>Unsubscribe</h1>
          <p>Press the button to stop receiving updates by email.</p>
          <fetcher.Form method="post">
            <button type="submit" className="primary-button">
              Unsubscribe
            </button>
          </fetcher.Form>
        </>
      )}
    </MailLinkPage>
  );
}
