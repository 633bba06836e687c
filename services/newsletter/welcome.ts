// Each wording of the welcome is frozen in a send of its own, so a welcome goes out through the newsletter
// queue like an issue: retried, signed, with its own return path and one-click unsubscribe.
import { randomBytes } from "node:crypto";
import { renderWithAbsoluteLinks } from "../../catalogue/derive.ts";
import type { Site } from "../../catalogue/schema.ts";
import { absoluteUrl } from "../../catalogue/site-url.ts";
import type { Db } from "../db/database.ts";
import type { IssueToSend } from "./issue.ts";
import { markdownAsPlainText, WELCOME_SLUG } from "./mail.ts";
import { frozenIssue } from "./worker.ts";

const defaultWelcome = (siteName: string) => ({
  subject: `Welcome to updates from ${siteName}`,
  body: "Thank you for confirming. The next update will reach you here; the past ones are on the site.",
});

type OwnersWelcome = Site["sections"]["updates"]["welcome"];

export function welcomeToSend(siteName: string, owners: OwnersWelcome, siteUrl: string): IssueToSend {
  const { subject, body } = owners ?? defaultWelcome(siteName);
  return {
    slug: WELCOME_SLUG,
    subject,
    bodyHtml: renderWithAbsoluteLinks(body, siteUrl),
    bodyText: markdownAsPlainText(body, siteUrl),
    issueUrl: absoluteUrl(siteUrl, "/updates"),
    siteName,
  };
}

/** Queues the welcome unless the subscriber already had one, from a sign-up before or another instance. */
export async function queueWelcome(
  trx: Db,
  subscriberId: number,
  welcome: IssueToSend,
  { messageIdDomain, now }: { messageIdDomain: string; now: number },
) {
  const welcomed = await trx
    .selectFrom("newsletter_deliveries")
    .innerJoin("newsletter_sends", "newsletter_sends.id", "newsletter_deliveries.send_id")
    .select("newsletter_deliveries.id")
    .where("subscriber_id", "=", subscriberId)
    .where("slug", "=", WELCOME_SLUG)
    .executeTakeFirst();
  if (welcomed) return;
  const frozen = frozenIssue(welcome);
  const send =
    (await trx
      .selectFrom("newsletter_sends")
      .select("id")
      .where((eb) => eb.and(frozen))
      .executeTakeFirst()) ??
    (await trx
      .insertInto("newsletter_sends")
      .values({ ...frozen, created_at: new Date(now).toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow());
  const salt = randomBytes(6).toString("hex");
  await trx
    .insertInto("newsletter_deliveries")
    .values({
      send_id: send.id,
      subscriber_id: subscriberId,
      message_id: `<newsletter.${send.id}.${subscriberId}.${salt}@${messageIdDomain}>`,
      status: "pending",
      next_attempt_at: now,
    })
    .execute();
}
