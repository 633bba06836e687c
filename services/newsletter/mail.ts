import { hideSpoilers } from "../../catalogue/derive.ts";
import { escapeXml } from "../../catalogue/xml.ts";
import type { OutgoingMail } from "../mail/transport.ts";
import type { IssueToSend } from "./issue.ts";
import { CONFIRM_TOKEN_DAYS } from "./tokens.ts";

/** The send that holds the welcome mails; no issue file can have this slug. */
export const WELCOME_SLUG = "_welcome";

export const unsubscribeUrl = (siteUrl: string, token: string) =>
  `${siteUrl}/updates/unsubscribe?token=${encodeURIComponent(token)}`;

const hostOf = (siteUrl: string) => new URL(siteUrl).host;

export function confirmationMail(siteUrl: string, ownerName: string, token: string): { subject: string; body: string } {
  return {
    subject: `Please confirm your subscription to updates from ${ownerName}`,
    body: [
      `Someone, hopefully you, asked to receive updates from ${ownerName} (${hostOf(siteUrl)}) at this address.`,
      "",
      "To confirm, open this link and press the button:",
      `${siteUrl}/updates/confirm?token=${encodeURIComponent(token)}`,
      "",
      `If you did not ask, ignore this mail: nothing will be sent to you, and the link stops working in ${CONFIRM_TOKEN_DAYS} days.`,
      "",
    ].join("\n"),
  };
}

/** Mail clients ignore <style> more often than not. */
const TAG_STYLES: Record<string, string> = {
  p: "margin:0 0 16px;",
  h1: "font-size:24px;line-height:1.3;margin:24px 0 12px;",
  h2: "font-size:20px;line-height:1.3;margin:24px 0 12px;",
  h3: "font-size:17px;line-height:1.3;margin:20px 0 8px;",
  a: "color:#2563eb;text-decoration:underline;",
  ul: "margin:0 0 16px;padding-left:24px;",
  ol: "margin:0 0 16px;padding-left:24px;",
  li: "margin:0 0 6px;",
  blockquote: "margin:0 0 16px;padding:0 0 0 14px;border-left:3px solid #9ca3af;",
  img: "max-width:100%;height:auto;",
  pre: "white-space:pre-wrap;font-size:14px;",
  code: "font-family:Menlo,Consolas,monospace;font-size:14px;",
  hr: "border:0;border-top:1px solid #d1d5db;margin:24px 0;",
};

export function inlineStyles(html: string): string {
  return html.replace(/<(p|h[1-3]|a|ul|ol|li|blockquote|img|pre|code|hr)(?=[\s>/])/g, (tag, name: string) => {
    const style = TAG_STYLES[name];
    return style ? `${tag} style="${style}"` : tag;
  });
}

/** Only Apple Mail, iOS and Outlook on the Mac honour prefers-color-scheme; the light inline palette reads in both. */
const DARK_STYLE = `@media (prefers-color-scheme: dark) {
  .mail-page { background: #111827 !important; }
  .mail-card { background: #1f2937 !important; }
  .mail-body, .mail-body p, .mail-body li, .mail-body h1, .mail-body h2, .mail-body h3 { color: #e5e7eb !important; }
  .mail-body a { color: #93c5fd !important; }
  .mail-footer, .mail-footer p, .mail-footer a { color: #9ca3af !important; border-color: #374151 !important; }
}`;

/** An issue's mail, but for its Message-ID, date and recipient. */
export function issueMail(issue: IssueToSend, siteUrl: string, unsubscribeLink: string) {
  const readOn = issue.slug === WELCOME_SLUG ? "Past updates on the site" : "Read it on the site";
  const why = `You get this because you subscribed to updates from ${issue.siteName} at ${hostOf(siteUrl)} and confirmed it.`;
  const text = [
    issue.subject,
    "",
    issue.bodyText,
    "",
    `${readOn}: ${issue.issueUrl}`,
    "",
    "--",
    why,
    `Unsubscribe with one click: ${unsubscribeLink}`,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeXml(issue.subject)}</title>
<style>${DARK_STYLE}</style>
</head>
<body class="mail-page" style="margin:0;padding:0;background:#f4f4f5;">
<table role="presentation" class="mail-page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f4f5;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" class="mail-card" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:#ffffff;color:#1f2937;border-radius:8px;">
<tr><td class="mail-body" style="padding:32px 28px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#1f2937;">
<p style="margin:0 0 8px;font-size:14px;color:#6b7280;">${escapeXml(issue.siteName)}</p>
<h1 style="font-size:26px;line-height:1.25;margin:0 0 20px;color:#111827;">${escapeXml(issue.subject)}</h1>
${inlineStyles(issue.bodyHtml)}
<p style="margin:24px 0 0;"><a href="${escapeXml(issue.issueUrl)}" style="color:#2563eb;text-decoration:underline;">${readOn}</a></p>
</td></tr>
<tr><td class="mail-footer" style="padding:20px 28px;border-top:1px solid #e5e7eb;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:13px;line-height:1.5;color:#6b7280;">
<p style="margin:0 0 8px;">${escapeXml(why)}</p>
<p style="margin:0;"><a href="${escapeXml(unsubscribeLink)}" style="color:#6b7280;text-decoration:underline;">Unsubscribe</a> with one click.</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  // RFC 2369 and RFC 8058: mail clients show an Unsubscribe button that posts to the link.
  const headers = { "List-Unsubscribe": `<${unsubscribeLink}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  return { fromName: issue.siteName, subject: issue.subject, html, text, headers } satisfies Partial<OutgoingMail>;
}

export function markdownAsPlainText(markdown: string, siteUrl: string): string {
  const shown = hideSpoilers(markdown);
  return shown.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (_match, image: string, label: string, target: string) => {
    const url = target.startsWith("/") && !target.startsWith("//") ? `${siteUrl}${target}` : target;
    return image ? `[${label || "image"}: ${url}]` : `${label} (${url})`;
  });
}
