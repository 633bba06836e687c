/**
 * The site as a fediverse actor, end to end: a production build of a copy of the fixture site, made
 * for this suite at its own SITE_URL and served by the production server (its own DATA_DIR, the
 * project's database), and a second real Fedify server in this process that follows it over loopback.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Accept, Article, Create, Delete, Note, Update } from "@fedify/vocab";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeDkimKey } from "../../services/mail/authentication.ts";
import { FIXTURE_CONTENT_ROOT } from "../browser/fixture-site.ts";
import { type FediverseReader, startFediverseReader } from "../support/fediverse-reader.ts";
import { freePort } from "../support/free-port.ts";
import {
  childProcessEnv,
  databaseConfig,
  makeTempDir,
  OWNER,
  postJson,
  type SmtpRecorder,
  startSmtp,
  TEST_SECRET,
  waitFor,
} from "./helpers.ts";
import { root } from "./production.ts";

const HANDLE = "test";
const ACTIVITY_JSON = "application/activity+json";

let temp: ReturnType<typeof makeTempDir>;
let site: { origin: string; child: ChildProcess; output: () => string };
let reader: FediverseReader;
let siteEnv: Record<string, string>;
let smtp: SmtpRecorder;

async function stopSite() {
  if (site.child.exitCode !== null) return;
  site.child.kill("SIGTERM");
  await new Promise((done) => site.child.once("exit", done));
}

let origin: string;
const buildEnv = () => ({
  ...childProcessEnv(),
  SITE_URL: origin,
  CONTENT_ROOT: join(temp.path, "site"),
  BUILD_DIR: join(temp.path, "builds"),
});

function build() {
  const built = spawnSync(process.execPath, ["build-tools/build.mjs"], {
    cwd: root,
    env: buildEnv(),
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`The build failed:\n${built.stdout}${built.stderr}`);
}

/** The production server of the suite's build, at SITE_URL = its own loopback address, as a deployed site would be. */
async function startSite(env: Record<string, string>) {
  const port = new URL(origin).port;
  let output = "";
  const child = spawn(process.execPath, [join(temp.path, "builds/current/server/main.js")], {
    env: { ...buildEnv(), PORT: port, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => child.exitCode !== null || output.includes("Serving on"), {
    timeoutMs: 60_000,
    what: "the site",
  });
  if (child.exitCode !== null) throw new Error(`The site exited:\n${output}`);
  return { origin, child, output: () => output };
}

const actorUrl = () => `${site.origin}/ap/actors/${HANDLE}`;

async function getActivityJson(url: string) {
  const response = await fetch(url, { headers: { Accept: ACTIVITY_JSON } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const followerCount = async () => (await getActivityJson(`${actorUrl()}/followers`)).totalItems as number;

beforeAll(async () => {
  temp = makeTempDir();
  origin = `http://127.0.0.1:${await freePort()}`;
  cpSync(FIXTURE_CONTENT_ROOT, join(temp.path, "site"), { recursive: true });
  build();
  const config = await databaseConfig(temp.path);
  smtp = await startSmtp();
  writeDkimKey(join(temp.path, "data", "dkim.pem"), "test");
  siteEnv = {
    SMTP_URL: smtp.url,
    DATA_DIR: join(temp.path, "data"),
    SECRET_KEY: TEST_SECRET,
    FEDERATION_ALLOW_LOOPBACK: "1",
    RATE_LIMIT: "0",
    ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}),
  };
  site = await startSite(siteEnv);
  reader = await startFediverseReader();
});

afterAll(async () => {
  await reader?.stop();
  if (site) await stopSite();
  await smtp?.stop();
  temp?.remove();
});

describe("the site's actor", () => {
  test("WebFinger finds the handle at SITE_URL's host and port, and names the actor", async () => {
    const host = new URL(site.origin).host;
    const response = await fetch(`${site.origin}/.well-known/webfinger?resource=acct:${HANDLE}@${host}`);
    expect(response.status).toBe(200);
    const links = ((await response.json()) as { links: { rel: string; href?: string }[] }).links;
    expect(links).toContainEqual(expect.objectContaining({ rel: "self", href: actorUrl() }));
  });

  test("an unknown handle is not found by WebFinger", async () => {
    const host = new URL(site.origin).host;
    const response = await fetch(`${site.origin}/.well-known/webfinger?resource=acct:nobody@${host}`);
    expect(response.status).toBe(404);
  });

  test("the actor carries the owner's name, the site's description, the site icon and links to the site", async () => {
    const actor = await getActivityJson(actorUrl());
    expect(actor.type).toBe("Person");
    expect(actor.preferredUsername).toBe(HANDLE);
    expect(actor.name).toBe("Test Owner");
    expect(actor.url).toBe(`${site.origin}/`);
    expect(actor.icon).toMatchObject({ url: `${site.origin}/apple-touch-icon.png` });
    const fields = actor.attachment as { type: string; value: string }[];
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.every((field) => field.type === "PropertyValue" && field.value.includes(site.origin))).toBe(true);
    expect(actor.publicKey).toMatchObject({ owner: actorUrl() });
  });

  test("NodeInfo is discovered from /.well-known/nodeinfo", async () => {
    const discovery = (await (await fetch(`${site.origin}/.well-known/nodeinfo`)).json()) as {
      links: { href: string }[];
    };
    const nodeinfo = (await (await fetch(discovery.links[0]?.href ?? "")).json()) as { protocols: string[] };
    expect(nodeinfo.protocols).toEqual(["activitypub"]);
  });

  test("a browser asking for the actor's page is answered by the site, not with JSON", async () => {
    const response = await fetch(actorUrl(), { headers: { Accept: "text/html" } });
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const home = await fetch(`${site.origin}/`, { headers: { Accept: "text/html" } });
    expect(home.status).toBe(200);
    expect(home.headers.get("Content-Type")).toMatch(/^text\/html/);
  });
});

describe("following the site", () => {
  test("a follow is accepted with an Accept sent back, and stored; an Undo removes it", async () => {
    const follow = await reader.follow(actorUrl());
    const accept = await waitFor(() => reader.received.find((activity) => activity instanceof Accept), {
      timeoutMs: 20_000,
      what: "the Accept",
    });
    expect(accept.actorId?.href).toBe(actorUrl());
    expect(accept.objectId?.href).toBe(follow.id?.href);
    expect(await followerCount()).toBe(1);

    await reader.unfollow(follow);
    await waitFor(async () => (await followerCount()) === 0, { timeoutMs: 20_000, what: "the follow removed" });
  });

  test("a follow with a forged signature is refused and not stored", async () => {
    const before = await followerCount();
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${reader.origin}/follows/forged`,
      type: "Follow",
      actor: reader.actorUrl,
      object: actorUrl(),
    });
    const response = await fetch(`${actorUrl()}/inbox`, {
      method: "POST",
      headers: {
        "Content-Type": ACTIVITY_JSON,
        Date: new Date().toUTCString(),
        Signature: `keyId="${reader.actorUrl}#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="${Buffer.from("forged").toString("base64")}"`,
      },
      body,
    });
    expect(response.status).toBe(401);
    expect(await followerCount()).toBe(before);
  });

  test("an unsigned activity is refused", async () => {
    const response = await fetch(`${site.origin}/ap/inbox`, {
      method: "POST",
      headers: { "Content-Type": ACTIVITY_JSON },
      body: JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${reader.origin}/follows/unsigned`,
        type: "Follow",
        actor: reader.actorUrl,
        object: actorUrl(),
      }),
    });
    expect(response.status).toBe(401);
  });

  test("a body that is not JSON gets a clear error, not a server error", async () => {
    const response = await fetch(`${site.origin}/ap/inbox`, {
      method: "POST",
      headers: { "Content-Type": ACTIVITY_JSON },
      body: "{not json",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  test("an Accept to a follower's server that is stopped is retried and arrives after it returns", async () => {
    const before = reader.received.length;
    await reader.follow(actorUrl());
    await reader.stop();
    await new Promise((done) => setTimeout(done, 2_000));
    expect(reader.received.length).toBe(before);
    await reader.start();
    await waitFor(() => reader.received.slice(before).find((activity) => activity instanceof Accept), {
      timeoutMs: 60_000,
      what: "the retried Accept",
    });
    expect(reader.received.slice(before).filter((activity) => activity instanceof Accept)).toHaveLength(1);
  });
});

describe("the inbox under load", () => {
  test("a flood of unsigned activities never makes a sign-up refused", async () => {
    // 50 connections at once: below MAX_CONNECTIONS_PER_ADDRESS, which guards against one address, not this.
    const statuses: (number | undefined)[] = [];
    let sent = 0;
    const flood = Array.from({ length: 50 }, async () => {
      while (sent < 1000) {
        const index = sent++;
        const response = await fetch(`${site.origin}/ap/inbox`, {
          method: "POST",
          headers: { "Content-Type": ACTIVITY_JSON },
          body: JSON.stringify({
            "@context": "https://www.w3.org/ns/activitystreams",
            id: `${reader.origin}/flood/${index}`,
            type: "Follow",
            actor: reader.actorUrl,
            object: actorUrl(),
          }),
        });
        await response.body?.cancel();
        statuses.push(response.status);
      }
    });
    const signUps = Array.from({ length: 10 }, (_, index) =>
      postJson(`${site.origin}/api/user`, { email: `flood-${index}@example.com` }, { origin: origin }),
    );
    const answers = await Promise.all(signUps);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    await Promise.all(flood);
    expect(new Set(statuses)).toEqual(new Set([401]));
  });
});

/** `npm run replies -- <args>` against the site's own DATA_DIR and database. */
function replies(...args: string[]) {
  const env: Record<string, string> = { ...childProcessEnv(), ...siteEnv };
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/replies.ts", ...args], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

const listed = () =>
  JSON.parse(replies("list", "--json")) as {
    id: number;
    kind: string;
    status: string;
    author: { url: string };
    text: string;
    target: string;
  }[];

const pageHtml = async (path: string) => {
  const response = await fetch(`${origin}${path}`, { headers: { Accept: "text/html" } });
  expect(response.status).toBe(200);
  return response.text();
};

describe("publishing to followers", () => {
  const essay = () => join(temp.path, "site/content/write/a-new-essay.md");
  const bookNote = () => join(temp.path, "site/content/notes/a-new-book.md");
  const writeEssay = (body: string) =>
    writeFileSync(essay(), `---\nname: "A new essay"\ndate: "6/1/24"\ntime: 1\n---\n\n${body}\n`);

  /** The objects of the activities of this type the reader received, with the count of each page's. */
  async function objectsOf(type: typeof Create | typeof Update) {
    const objects: (Article | Note)[] = [];
    for (const activity of reader.received) {
      if (!(activity instanceof type)) continue;
      const object = await activity.getObject();
      if (object instanceof Article || object instanceof Note) objects.push(object);
    }
    return objects;
  }
  const atPage = (objects: (Article | Note)[], path: string) =>
    objects.filter((object) => object.url?.toString() === `${origin}${path}`);

  test("a new essay, book note and quote of a build reach a follower once each, after the build is live", async () => {
    await waitFor(async () => (await followerCount()) >= 1, { timeoutMs: 20_000, what: "a follower" });
    writeEssay("A new essay, linking [Fear](/write/fear).");
    writeFileSync(
      bookNote(),
      '---\nname: "A New Book"\nauthor: "Some Author"\ndate: "6/2/24"\ntags: ["Psychology"]\nrating: 8\ntime: 10\n---\n\nA short review.\n\n> A sentence worth keeping.\n\n— p. 3\n',
    );
    build();
    await waitFor(async () => (await objectsOf(Create)).length >= 3, { timeoutMs: 60_000, what: "three Creates" });
    await new Promise((done) => setTimeout(done, 3_000));
    const created = await objectsOf(Create);
    expect(created).toHaveLength(3);

    const [article] = atPage(created, "/write/a-new-essay");
    expect(article).toBeInstanceOf(Article);
    expect(article?.name?.toString()).toBe("A new essay");
    expect(article?.content?.toString()).toContain(`href="${origin}/write/fear"`);
    expect((await getActivityJson(article?.id?.href ?? "")).type).toBe("Article");

    const [note] = atPage(created, "/notes/a-new-book");
    expect(note).toBeInstanceOf(Note);
    expect(note?.content?.toString()).toContain("A New Book");
    expect(note?.content?.toString()).toContain("Some Author");
    expect(note?.content?.toString()).toContain("A short review.");

    const quote = created.find((object) => object.content?.toString().includes("A sentence worth keeping."));
    expect(quote).toBeInstanceOf(Note);

    const outbox = await getActivityJson(`${actorUrl()}/outbox`);
    const firstPage = await getActivityJson(outbox.first as string);
    const newest = (firstPage.orderedItems as { object: { id: string } }[]).map((create) => create.object.id);
    expect(newest).toContain(article?.id?.href);
    expect(outbox.totalItems).toBeGreaterThan(3);
  });

  test("a fediverse reply to a published essay is held for the owner; one to an object the site never published is dropped", async () => {
    const [article] = atPage(await objectsOf(Create), "/write/a-new-essay");
    await reader.reply(actorUrl(), article?.id?.href ?? "", "Thank you for this essay &amp; its links.");
    await reader.reply(actorUrl(), `${origin}/ap/notes/999999`, "A reply to nothing of ours.");
    await waitFor(() => listed().length > 0, { timeoutMs: 20_000, what: "the reply held" });
    await new Promise((done) => setTimeout(done, 2_000));
    expect(listed()).toMatchObject([
      {
        kind: "fediverse",
        status: "pending",
        author: { url: reader.actorUrl },
        text: "Thank you for this essay & its links.",
        target: "/write/a-new-essay",
      },
    ]);
    const [held] = listed();
    const summary = await waitFor(
      () =>
        smtp.received.find(
          (mail) => mail.parsed.subject === `Reply #${held?.id} to /write/a-new-essay from Test Reader`,
        ),
      { timeoutMs: 20_000, what: "the owner's summary of the reply" },
    );
    expect(summary.envelope.to).toEqual([OWNER]);
    expect(summary.parsed.text).toContain(`npm run replies -- approve ${held?.id}`);
    expect(summary.raw).toMatch(/^DKIM-Signature:/m);
  });

  test("an approved reply appears under its essay without JavaScript within a minute, with its author's name, link and date", async () => {
    const [held] = listed();
    expect(await pageHtml("/write/a-new-essay")).not.toContain("Thank you for this essay");
    replies("approve", String(held?.id));
    await waitFor(async () => (await pageHtml("/write/a-new-essay")).includes("Thank you for this essay"), {
      timeoutMs: 60_000,
      what: "the approved reply under the essay",
    });
    const html = await pageHtml("/write/a-new-essay");
    expect(html).not.toMatch(/<script[^>]+type="module"/);
    const reply = /<li id="reply-\d+" class="h-entry">([\s\S]*?)<\/li>/.exec(html)?.[1] ?? "";
    expect(reply).toContain(`<a class="p-author h-card" href="${reader.actorUrl}" rel="nofollow ugc">Test Reader</a>`);
    expect(reply).toMatch(
      /<time class="dt-published" dateTime="\d{4}-\d\d-\d\dT[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time>/,
    );
    expect(reply).toContain("Thank you for this essay &amp; its links.");

    replies("reject", String(held?.id));
    await waitFor(async () => !(await pageHtml("/write/a-new-essay")).includes("Thank you for this essay"), {
      timeoutMs: 60_000,
      what: "the rejected reply gone from the essay",
    });
  });

  test("an edited essay is sent again as an Update, once", async () => {
    writeEssay("A new essay, now edited.");
    build();
    await waitFor(async () => atPage(await objectsOf(Update), "/write/a-new-essay").length > 0, {
      timeoutMs: 60_000,
      what: "the essay's Update",
    });
    await new Promise((done) => setTimeout(done, 2_000));
    const updates = atPage(await objectsOf(Update), "/write/a-new-essay");
    expect(updates).toHaveLength(1);
    expect(updates[0]?.content?.toString()).toContain("now edited");
    expect(await objectsOf(Update)).toHaveLength(1);
  });

  test("an essay removed by a later build is deleted from followers' servers", async () => {
    rmSync(essay());
    build();
    await waitFor(() => reader.received.some((activity) => activity instanceof Delete), {
      timeoutMs: 60_000,
      what: "the essay's Delete",
    });
    await new Promise((done) => setTimeout(done, 2_000));
    const deletes = reader.received.filter((activity) => activity instanceof Delete);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.objectId?.href).toMatch(/\/ap\/articles\/\d+$/);
    expect((await fetch(deletes[0]?.objectId?.href ?? "", { headers: { Accept: ACTIVITY_JSON } })).status).toBe(404);
  });
});

describe("a blocked sender", () => {
  test("a follow from a domain the owner blocked is not stored", async () => {
    const env: Record<string, string> = { ...childProcessEnv(), ...siteEnv };
    const blocked = spawnSync(process.execPath, ["--import", "tsx", "scripts/replies.ts", "block", "127.0.0.1"], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    expect(blocked.status, blocked.stderr).toBe(0);
    const before = await followerCount();
    const blockedReader = await startFediverseReader();
    try {
      await blockedReader.follow(actorUrl());
      await new Promise((done) => setTimeout(done, 3_000));
      expect(await followerCount()).toBe(before);
      expect(blockedReader.received.some((activity) => activity instanceof Accept)).toBe(false);
    } finally {
      await blockedReader.stop();
    }
  });
});

describe("a restart", () => {
  test("keeps the actor's keys and its followers", async () => {
    const key = (await getActivityJson(actorUrl())).publicKey;
    const followers = await followerCount();
    expect(followers).toBeGreaterThan(0);
    await stopSite();
    site = await startSite(siteEnv);
    expect((await getActivityJson(actorUrl())).publicKey).toEqual(key);
    expect(await followerCount()).toBe(followers);
  });

  test("is refused with FEDERATION_ALLOW_LOOPBACK=1 and an https SITE_URL, in a line naming both", async () => {
    const refused = spawnSync(process.execPath, [join(temp.path, "builds/current/server/main.js")], {
      env: { ...buildEnv(), ...siteEnv, SITE_URL: "https://example.com", PORT: "0" },
      encoding: "utf8",
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/FEDERATION_ALLOW_LOOPBACK=1 .*SITE_URL is https/);
  });
});
