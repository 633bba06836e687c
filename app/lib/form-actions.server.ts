import { createContext, data, type HeadersFunction, type RouterContextProvider, redirect } from "react-router";
import { type FormResult, MESSAGES } from "../../rules/forms.ts";
import type { Backend } from "../../services/backend.ts";
import { sendMessage } from "../../services/contact/send.ts";
import { SENT_PARAM, sentFormIn, sentToken } from "../../services/forms/sent.ts";
import { signUp } from "../../services/newsletter/sign-up.ts";
import { submitReply } from "../../services/replies/form.ts";
import { catalogue, notFound } from "../catalogue.server.ts";
import { type FormName, type FormOutcome, formAnswer, formFields, formValues } from "./form-answer.ts";

// Both set per request by host/app.ts; the address from the connection or a trusted proxy.
export const clientAddress = createContext<string | undefined>();
export const backendContext = createContext<Backend>();

/** The backend, or undefined while the build prerenders, which has none. */
export function backendIn(context: Readonly<RouterContextProvider>): Backend | undefined {
  try {
    return context.get(backendContext);
  } catch {
    return undefined;
  }
}

export type FormRead =
  | { ok: true; values: Record<string, string> }
  | { ok: false; status: 400 | 415; error: typeof MESSAGES.formUnreadable };

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const UTF_8 = new Set(["utf-8", "utf8"]);

// Every page here is UTF-8, so a browser's post is too; anything else is 415.
export async function readForm(request: Request): Promise<FormRead> {
  const header = request.headers.get("content-type") ?? "";
  const type = header.split(";")[0] ?? "";
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(header)?.[1]?.toLowerCase();
  if (!FORM_TYPES.has(type.trim().toLowerCase()) || (charset !== undefined && !UTF_8.has(charset))) {
    return { ok: false, status: 415, error: MESSAGES.formUnreadable };
  }
  const form = await request.formData().catch(() => undefined);
  if (!form) return { ok: false, status: 400, error: MESSAGES.formUnreadable };
  return { ok: true, values: formValues(form) };
}

function respond(form: FormName, outcome: FormOutcome, values: Record<string, string>) {
  const headers: Record<string, string> = {};
  if ("retryAfter" in outcome && outcome.retryAfter !== undefined) headers["Retry-After"] = String(outcome.retryAfter);
  return data(formAnswer(form, outcome, formFields(form, values)), { status: outcome.status, headers });
}

// A page's own post (no JavaScript) succeeds with a 303 to the page showing the outcome (docs/decisions/
// post-redirect-get.md), named in one spelling: no trailing slash, no leading `//` naming another host.
export function backToPage(url: URL, sent?: { form: FormName; secret: string }) {
  const page = new URL(url);
  if (sent) page.searchParams.set(SENT_PARAM, sentToken(sent.secret, sent.form));
  return redirect(`/${page.pathname.replace(/^\/+|\/+$/g, "")}${page.search}`, 303);
}

/** The form the page's address says was just sent: only a page a post redirected to says so, no prerendered one. */
export function sentForm(url: URL, context: Readonly<RouterContextProvider>) {
  return url.searchParams.has(SENT_PARAM) ? sentFormIn(url, context.get(backendContext).config.secretKey) : undefined;
}

type FormActionArgs = { request: Request; url: URL; context: Readonly<RouterContextProvider> };
type FormService = (backend: Backend, input: unknown, ip: string | undefined) => Promise<FormResult>;

// `read`: a post already read (the confirm page reads first to tell its two forms apart).
export async function submitForm(form: FormName, service: FormService, args: FormActionArgs, read?: FormRead) {
  const post = read ?? (await readForm(args.request));
  if (!post.ok) return respond(form, post, {});
  const backend = args.context.get(backendContext);
  const outcome = await service(backend, post.values, args.context.get(clientAddress));
  // A fetcher posts to the page's `.data` and shows the answer in place.
  const fromFetcher = new URL(args.request.url).pathname.endsWith(".data");
  if (outcome.ok && !fromFetcher) return backToPage(args.url, { form, secret: backend.config.secretKey });
  return respond(form, outcome, post.values);
}

export const signupAction = (args: FormActionArgs) => submitForm("signup", signUp, args);
export const contactAction = (args: FormActionArgs) => submitForm("contact", sendMessage, args);
const repliedPages = new Map(
  [...catalogue.writings, ...catalogue.notes].map((item) => [item.path, { path: item.path, title: item.name }]),
);

/** The action of the reply form under each essay (`/write`) and book note (`/notes`): a post to no such page stores nothing. */
export const replyAction = (section: "/write" | "/notes") => (args: FormActionArgs & { params: { slug?: string } }) => {
  const page = repliedPages.get(`${section}/${args.params.slug}`) ?? notFound();
  const words = catalogue.site.replies;
  return submitForm("reply", (backend, input, ip) => submitReply({ ...backend, words }, page, input, ip), args);
};

export const formHeaders: HeadersFunction = ({ actionHeaders }) => actionHeaders;
