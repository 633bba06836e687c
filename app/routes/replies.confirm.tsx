import { data } from "react-router";
import { confirmFormReply, type ReplyLinkState, replyLinkState } from "../../services/replies/form.ts";
import { catalogue } from "../catalogue.server.ts";
import { MailLinkPage, tokenOf, useMailLinkState } from "../components/MailLinkPage.tsx";
import { backendContext, backToPage, formHeaders, readForm } from "../lib/form-actions.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/replies.confirm";

export const handle = pageHandle("write", { perRequest: true });

const pageWords = () => {
  const { confirm, confirmed, invalid } = catalogue.site.replies;
  return { confirm, confirmed, invalid };
};

/** Opening the link confirms nothing (mail scanners open links): it only says whether the button will work. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request.url);
  const { database, config } = context.get(backendContext);
  const state = await replyLinkState({ db: database.db }, config.secretKey, token);
  return data({ token, state, words: pageWords() }, { status: state === "invalid" ? 400 : 200 });
}

type ConfirmAnswer = { form: "reply-confirm"; outcome: ReplyLinkState | "unreadable" };

export async function action(args: Route.ActionArgs) {
  const read = await readForm(args.request);
  if (!read.ok) return data<ConfirmAnswer>({ form: "reply-confirm", outcome: "unreadable" }, { status: read.status });
  const token = read.values.token ?? tokenOf(args.request.url);
  const { database, config, outbox } = args.context.get(backendContext);
  const deps = { db: database.db, outbox, siteUrl: config.siteUrl, ownerEmail: config.ownerEmail };
  const outcome = await confirmFormReply(deps, config.secretKey, token);
  if (outcome === "invalid") return data<ConfirmAnswer>({ form: "reply-confirm", outcome }, { status: 400 });
  // The page then shows it from the database: the reply waits for the owner.
  return backToPage(args.url);
}

export const headers = formHeaders;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Confirm reply", noindex: true });

/** This page ships no script: its button posts as a plain form, and the answer comes with the page. */
export default function ConfirmReply({ loaderData }: Route.ComponentProps) {
  const { fetcher, state, unreadable } = useMailLinkState<ConfirmAnswer>("reply-confirm", loaderData.state);
  const { words } = loaderData;
  return (
    <MailLinkPage unreadable={unreadable}>
      {state === "confirmed" ? (
        <>
          <h1>Reply confirmed</h1>
          <p role="status">{words.confirmed}</p>
        </>
      ) : state === "invalid" ? (
        <>
          <h1>This link confirms nothing</h1>
          <p>{words.invalid}</p>
        </>
      ) : (
        <>
          <h1>Confirm your reply</h1>
          <p>{words.confirm}</p>
          <fetcher.Form method="post">
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" className="primary-button">
              Confirm reply
            </button>
          </fetcher.Form>
        </>
      )}
    </MailLinkPage>
  );
}
