import { data } from "react-router";
import { messageIdDomainOf } from "../../services/mail/outbox.ts";
import { signUp } from "../../services/newsletter/sign-up.ts";
import { checkConfirmToken, confirmSubscription } from "../../services/newsletter/subscriptions.ts";
import { welcomeToSend } from "../../services/newsletter/welcome.ts";
import { catalogue } from "../catalogue.server.ts";
import { MailLinkPage, tokenOf, useMailLinkState } from "../components/MailLinkPage.tsx";
import { SignupBox } from "../components/SignupBox.tsx";
import { backendContext, backToPage, formHeaders, readForm, submitForm } from "../lib/form-actions.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/updates.confirm";

export const handle = pageHandle("updates", { perRequest: true });

/** Opening the link confirms nothing (mail scanners open links): it only says whether the button will work. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request.url);
  const { database, config } = context.get(backendContext);
  const { state } = await checkConfirmToken(database.db, config.secretKey, token);
  return data({ token, state }, { status: state === "invalid" ? 400 : 200 });
}

type ConfirmAnswer = { form: "confirm"; outcome: "confirmed" | "invalid" | "unreadable" };

/** The button confirms; the sign-up box shown beside an expired link posts here too. */
export async function action(args: Route.ActionArgs) {
  const read = await readForm(args.request);
  if (read.ok && "email" in read.values) return submitForm("signup", signUp, args, read);
  if (!read.ok) return data<ConfirmAnswer>({ form: "confirm", outcome: "unreadable" }, { status: read.status });
  const token = read.values.token ?? tokenOf(args.request.url);
  const { database, config, newsletter } = args.context.get(backendContext);
  const welcome = {
    mail: welcomeToSend(catalogue.site.name, catalogue.site.sections.updates.welcome, config.siteUrl),
    messageIdDomain: messageIdDomainOf(config.mailFrom),
  };
  const outcome = await confirmSubscription(database.db, config.secretKey, token, Date.now(), welcome);
  // The page then shows it from the database: the link's subscriber is confirmed.
  if (outcome === "confirmed") {
    newsletter.nudge();
    return backToPage(args.url);
  }
  return data<ConfirmAnswer>({ form: "confirm", outcome }, { status: 400 });
}

export const headers = formHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Confirm subscription", noindex: true });

/** This page ships no script: its forms post as plain forms, and the answer comes with the page. */
export default function ConfirmSubscription({ loaderData }: Route.ComponentProps) {
  const { fetcher, state, unreadable } = useMailLinkState<ConfirmAnswer>("confirm", loaderData.state);
  return (
    <MailLinkPage unreadable={unreadable}>
      {state === "confirmed" ? (
        <>
          <h1>You're subscribed</h1>
          <p role="status">Thank you! The next update will reach your inbox.</p>
        </>
      ) : state === "invalid" ? (
        <>
          <h1>This link has expired</h1>
          <p>
            The confirmation link is no longer valid: it was already used, or it is more than 7 days old. Sign up again
            and a new one will be sent to you.
          </p>
          <SignupBox />
        </>
      ) : (
        <>
          <h1>Confirm your subscription</h1>
          <p>Press the button to start receiving updates by email.</p>
          <fetcher.Form method="post">
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" className="primary-button">
              Confirm subscription
            </button>
          </fetcher.Form>
        </>
      )}
    </MailLinkPage>
  );
}
