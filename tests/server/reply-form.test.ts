/**
 * The reply form under each essay and book note, posted without JavaScript to the production server
 * (`npm start`'s command on the real build of the fixture site) with the tests' SMTP server, a DKIM
 * key and the project's database: the reply is stored unconfirmed before the answer, its writer is
 * mailed a signed link, the link's button makes it pending and mails the owner once; bad input is
 * answered on the page with its field, never with a 5xx.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fillTemplate } from "../../catalogue/template.ts";
import { MESSAGES, REPLY_LIMITS } from "../../rules/forms.ts";
import type { Database } from "../../services/db/database.ts";
import { replyConfirmToken } from "../../services/replies/form.ts";
import { blockSender, listBlocks, listReplies, moderateReply, type Reply } from "../../services/replies/store.ts";
import { catalogue as fixtureCatalogue } from "../browser/fixture-site.ts";
import {
  databaseConfig,
  makeTempDir,
  OWNER,
  openTestDatabase,
  SENDER,
  type SmtpRecorder,
  sleep,
  startSmtp,
  TEST_SECRET,
  waitFor,
} from "./helpers.ts";
import { type ProductionServer, startProductionServer } from "./production.ts";

const RATE_LIMIT = 3;
const WORDS = fixtureCatalogue.site.replies;
const essay = fixtureCatalogue.writings.find((writing) => writing.slug === "fear");
const note = fixtureCatalogue.notes.find((item) => item.slug === "a-winter-almanac");

let temp: ReturnType<typeof makeTempDir>;
let smtp: SmtpRecorder;
let server: ProductionServer;
let database: Database;

beforeAll(async () => {
  temp = makeTempDir();
  smtp = await startSmtp();
  const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" });
  writeFileSync(join(temp.path, "dkim.pem"), `DKIM selector: s1\n${pem}`);
  const config = await databaseConfig(temp.path);
  server = await startProductionServer({
    DATA_DIR: temp.path,
    SECRET_KEY: TEST_SECRET,
    SMTP_URL: smtp.url,
    OWNER_EMAIL: OWNER,
    MAIL_FROM: SENDER,
    RATE_LIMIT: String(RATE_LIMIT),
    // Each test posts from an address of its own, so their posts never share a rate limit.
    TRUST_PROXY: "1",
    ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}),
  });
  database = await openTestDatabase(config);
}, 300_000);

afterAll(async () => {
  await database?.close();
  await server?.stop();
  await smtp?.stop();
  temp?.remove();
});

const FORM_TYPE = "application/x-www-form-urlencoded";
let lastAddress = 0;
const newClient = () => `192.0.2.${++lastAddress}`;

type Post = { client?: string; contentType?: string; body?: string };

/** A browser's plain form post: same origin, the redirect left for the test to follow. */
function post(path: string, fields: Record<string, string>, { client = newClient(), contentType, body }: Post = {}) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": contentType ?? FORM_TYPE, Origin: server.origin, "X-Forwarded-For": client },
    body: body ?? new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const page = async (path: string) => {
  const response = await fetch(`${server.origin}${path}`, { headers: { "X-Forwarded-For": newClient() } });
  return { status: response.status, html: await response.text() };
};

const replies = () => listReplies(database.db);
const repliesFrom = async (address: string) => (await replies()).filter((reply) => reply.author_address === address);
const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelope.to.includes(address));
const messagesTo = (address: string) =>
  database.db.selectFrom("messages").select("id").where("email", "=", address).execute();

/** The fields as a reader fills them; each test gives its own address. */
const reader = (email: string, overrides: Record<string, string> = {}) => ({
  name: "Sample Reader",
  site: "https://reader.example/",
  email,
  text: "A sample reply, in two lines.\nThe second one.",
  website: "",
  ...overrides,
});

/** The path and query of the confirmation link in the one mail to `address`. */
async function confirmationPath(address: string): Promise<string> {
  const mail = await waitFor(() => mailsTo(address)[0], { what: `the confirmation mail to ${address}` });
  const link = /https?:\/\/\S+\/replies\/confirm\?token=\S+/.exec(mail.parsed.text ?? "")?.[0];
  if (!link) throw new Error(`No confirmation link in:\n${mail.parsed.text}`);
  const url = new URL(link);
  return url.pathname + url.search;
}

/** The one reply stored from `address`, once it has been posted. */
async function onlyReplyFrom(address: string): Promise<Reply> {
  const stored = await repliesFrom(address);
  expect(stored).toHaveLength(1);
  return stored[0] as Reply;
}

describe("a reply posted without JavaScript", () => {
  test("is stored unconfirmed before a 303 back to the essay, whose page says a mail was sent; loading it again stores nothing", async () => {
    const address = "first.reader@example.com";
    const answer = await post(`${essay?.path}`, reader(address));
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/write\/fear\?sent=reply\.\d+\.[\w-]{43}$/);
    const reply = await onlyReplyFrom(address);
    expect(reply).toMatchObject({
      kind: "form",
      status: "unconfirmed",
      target: "/write/fear",
      author_name: "Sample Reader",
      author_url: "https://reader.example/",
      text: "A sample reply, in two lines.\nThe second one.",
    });
    for (let load = 0; load < 2; load++) {
      const outcome = await page(location);
      expect(outcome.status).toBe(200);
      expect(outcome.html).toContain(WORDS.sent);
      expect(outcome.html).not.toContain('name="text"');
    }
    const plain = await page(`${essay?.path}`);
    expect(plain.html).toContain(WORDS.invite);
    expect(plain.html).not.toContain(WORDS.sent);
    expect(await repliesFrom(address)).toHaveLength(1);
  });

  test("its writer alone is mailed, signed, in the fixture's words, a link whose page shows a button and confirms nothing", async () => {
    const address = "link.reader@example.com";
    expect((await post(`${essay?.path}`, reader(address))).status).toBe(303);
    const path = await confirmationPath(address);
    const mail = mailsTo(address)[0];
    expect(mail?.envelope.to).toEqual([address]);
    expect(mail?.parsed.subject).toBe(fillTemplate(WORDS.mail.subject, { title: "Fear" }));
    expect(mail?.parsed.text).toContain("Fixture mail about your reply to Fear.");
    expect(mail?.raw).toMatch(/^DKIM-Signature: /m);
    for (let load = 0; load < 2; load++) {
      const opened = await page(path);
      expect(opened.status).toBe(200);
      expect(opened.html).toContain(WORDS.confirm);
      expect(opened.html).toContain("Confirm reply</button>");
    }
    expect((await onlyReplyFrom(address)).status).toBe("unconfirmed");
    expect(mailsTo(OWNER)).toEqual([]);
  });

  test("the button makes the reply pending and mails the owner once; pressing it again, even after approval, changes nothing", async () => {
    const address = "confirming.reader@example.com";
    expect((await post(`${essay?.path}`, reader(address))).status).toBe(303);
    const path = await confirmationPath(address);
    const token = new URL(path, server.origin).searchParams.get("token") ?? "";
    const confirmed = await post(path, { token });
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([303, path]);
    const shown = await page(path);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(WORDS.confirmed);
    const reply = await onlyReplyFrom(address);
    expect(reply.status).toBe("pending");
    const summary = await waitFor(
      () => mailsTo(OWNER).find((mail) => mail.parsed.subject?.startsWith(`Reply #${reply.id} `)),
      {
        what: "the owner's summary",
      },
    );
    expect(summary.parsed.text).toContain(`npm run replies -- approve ${reply.id}`);
    expect(summary.parsed.replyTo?.value[0]?.address).toBe(address);

    expect((await post(path, { token })).status).toBe(303);
    await moderateReply(database.db, reply.id, "approved");
    expect((await post(path, { token })).status).toBe(303);
    expect((await page(path)).html).toContain(WORDS.confirmed);
    await sleep(500);
    expect((await onlyReplyFrom(address)).status).toBe("approved");
    expect(mailsTo(OWNER).filter((mail) => mail.parsed.subject?.startsWith(`Reply #${reply.id} `))).toHaveLength(1);
  });

  test("a forged, cut or foreign token is answered with a clear 400 page, and the reply stays as it was", async () => {
    const address = "forged.reader@example.com";
    expect((await post(`${essay?.path}`, reader(address))).status).toBe(303);
    const reply = await onlyReplyFrom(address);
    const genuine = replyConfirmToken(TEST_SECRET, reply);
    const forged = [
      `${reply.id}.${"A".repeat(43)}`,
      replyConfirmToken("another-secret-0123456789abcdef0123456789", reply),
      genuine.slice(0, -1),
      `${reply.id + 1000}.${genuine.split(".")[1]}`,
      "not-a-token",
      "",
    ];
    for (const token of forged) {
      const path = `/replies/confirm?token=${encodeURIComponent(token)}`;
      const opened = await page(path);
      expect([opened.status, opened.html.includes(WORDS.invalid)], token).toEqual([400, true]);
      const pressed = await post(path, { token });
      expect([pressed.status, (await pressed.text()).includes(WORDS.invalid)], token).toEqual([400, true]);
    }
    const unreadable = await post(`/replies/confirm?token=${genuine}`, {}, { contentType: "text/plain", body: "x" });
    expect(unreadable.status).toBe(415);
    expect(await unreadable.text()).toContain(MESSAGES.formUnreadable);
    expect((await onlyReplyFrom(address)).status).toBe("unconfirmed");
  });

  test("a book note takes replies the same way", async () => {
    const address = "note.reader@example.com";
    const answer = await post(`${note?.path}`, reader(address));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/notes\/a-winter-almanac\?sent=reply\./);
    expect((await onlyReplyFrom(address)).target).toBe("/notes/a-winter-almanac");
    expect((await page(answer.headers.get("location") ?? "")).html).toContain(WORDS.sent);
  });

  test("a post to an essay the site does not have is not found and stores nothing", async () => {
    const address = "nowhere.reader@example.com";
    const answer = await post("/write/no-such-essay", reader(address));
    expect(answer.status).toBe(404);
    expect(await repliesFrom(address)).toEqual([]);
  });
});

describe("bad input", () => {
  const address = "bad.input@example.com";
  const refused: { what: string; field: string; fields: Record<string, string>; message: string }[] = [
    { what: "no name", field: "name", fields: { name: "  " }, message: MESSAGES.nameRequired },
    {
      what: "a name over the limit",
      field: "name",
      fields: { name: "n".repeat(REPLY_LIMITS.nameMaxLength + 1) },
      message: MESSAGES.nameTooLong,
    },
    {
      what: "CR/LF in the name",
      field: "name",
      fields: { name: "Sample\r\nBcc: x@example.com" },
      message: MESSAGES.nameMultiline,
    },
    {
      what: "a javascript: site",
      field: "site",
      fields: { site: "javascript:alert(1)" },
      message: MESSAGES.siteInvalid,
    },
    {
      what: "a site without its scheme",
      field: "site",
      fields: { site: "reader.example" },
      message: MESSAGES.siteInvalid,
    },
    { what: "no email", field: "email", fields: { email: "" }, message: MESSAGES.emailRequired },
    { what: "a malformed email", field: "email", fields: { email: "reader@" }, message: MESSAGES.emailInvalid },
    { what: "no text", field: "text", fields: { text: "\r\n " }, message: MESSAGES.replyRequired },
    {
      what: "a text over the limit",
      field: "text",
      fields: { text: "t".repeat(REPLY_LIMITS.textMaxLength + 1) },
      message: MESSAGES.replyTooLong,
    },
  ];

  for (const { what, field, fields, message } of refused) {
    test(`${what}: a 400 page with the message beside the field, the other values kept, nothing stored`, async () => {
      const filled = reader(address, { name: "Kept Name", text: "Kept words.", ...fields });
      const answer = await post(`${essay?.path}`, filled);
      expect(answer.status).toBe(400);
      const html = await answer.text();
      expect(html).toContain(message);
      const control = new RegExp(`<(?:input|textarea)[^>]*name="${field}"[^>]*>`).exec(html)?.[0] ?? "";
      expect(control).toContain('aria-invalid="true"');
      if (field !== "name") expect(html).toContain('value="Kept Name"');
      if (field !== "text") expect(html).toContain("Kept words.</textarea>");
      expect(await repliesFrom(address)).toEqual([]);
    });
  }

  test("a text at the limit whose line breaks the browser sent as CR LF is kept, with plain line breaks", async () => {
    const address = "long.reader@example.com";
    const text = `${"ab\n".repeat(3333)}a`;
    expect(text).toHaveLength(REPLY_LIMITS.textMaxLength);
    const answer = await post(`${essay?.path}`, reader(address, { text: text.replaceAll("\n", "\r\n") }));
    expect(answer.status).toBe(303);
    expect((await onlyReplyFrom(address)).text).toBe(text);
  });

  test("a body no form reader can take is a 400 or 415 with the form's message", async () => {
    const fields = new URLSearchParams(reader(address)).toString();
    for (const [contentType, body] of [
      ["text/plain", fields],
      ["application/json", JSON.stringify(reader(address))],
      [`${FORM_TYPE}; charset=koi8-r`, fields],
      ["multipart/form-data; boundary=b0undary", '--b0undary\r\nContent-Disposition: form-data; name="na'],
    ] as const) {
      const answer = await post(`${essay?.path}`, {}, { contentType, body });
      expect([400, 415], contentType).toContain(answer.status);
      expect(await answer.text()).toContain(MESSAGES.formUnreadable);
    }
    expect(await repliesFrom(address)).toEqual([]);
  });

  test("a huge body is refused with 413 before it is read", async () => {
    const answer = await post(`${essay?.path}`, reader(address, { text: "x".repeat(200 * 1024) }));
    expect(answer.status).toBe(413);
    expect(await repliesFrom(address)).toEqual([]);
  });

  test("a filled honeypot gets the same 303 and sent page, and nothing is stored or mailed", async () => {
    const address = "bot@example.com";
    const answer = await post(`${essay?.path}`, reader(address, { website: "https://spam.example/" }));
    expect(answer.status).toBe(303);
    expect((await page(answer.headers.get("location") ?? "")).html).toContain(WORDS.sent);
    expect(await repliesFrom(address)).toEqual([]);
    expect(await messagesTo(address)).toEqual([]);
  });

  test("over the rate limit, a 429 with Retry-After and the page's message; typos cost nothing", async () => {
    const client = newClient();
    const address = "eager.reader@example.com";
    expect((await post(`${essay?.path}`, reader(address, { name: "" }), { client })).status).toBe(400);
    for (let sent = 0; sent < RATE_LIMIT; sent++) {
      expect((await post(`${essay?.path}`, reader(address), { client })).status).toBe(303);
    }
    const limited = await post(`${essay?.path}`, reader(address), { client });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(MESSAGES.rateLimited);
    expect(await repliesFrom(address)).toHaveLength(RATE_LIMIT);
  });
});

describe("a blocked sender", () => {
  test("gets the same answer, the reply is kept as blocked and counted, and no mail goes out", async () => {
    await blockSender(database.db, "blocked.example");
    const address = "someone@blocked.example";
    const answer = await post(`${essay?.path}`, reader(address));
    expect(answer.status).toBe(303);
    expect((await onlyReplyFrom(address)).status).toBe("blocked");
    expect(await messagesTo(address)).toEqual([]);
    expect((await listBlocks(database.db)).find((block) => block.value === "blocked.example")?.dropped).toBe(1);
  });
});

// Runs last (tests in a file run in order): every answer above was the client's doing, so nothing is logged.
describe("the server's log", () => {
  test("none of these posts left a stack trace or an error in the server's log", () => {
    expect(server.output()).not.toMatch(/\n\s+at |Error|failed/);
  });
});
