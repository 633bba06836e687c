/**
 * Writes have their own lane, on the production server (`npm start`'s command on the real build)
 * with one render slot: while a flood of new list searches keeps that slot taken (and gets 503s),
 * every contact message (a plain form post, the page it redirects to, and the page's fetcher post),
 * sign-up, confirmation and one-click unsubscribe gets its real answer. Also: an odd path is answered with the not-found page.
 */

import { afterAll, beforeAll, expect, test } from "vitest";
import { confirmToken, unsubscribeToken } from "../../services/newsletter/tokens.ts";
import { storedSubscriber } from "../support/subscribers.ts";
import { makeTempDir, TEST_SECRET } from "./helpers.ts";
import { type ProductionServer, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer;

beforeAll(async () => {
  temp = makeTempDir();
  server = await startProductionServer({
    DATA_DIR: temp.path,
    SECRET_KEY: TEST_SECRET,
    RENDER_CONCURRENCY: "1",
    RATE_LIMIT: "0",
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  temp?.remove();
});

const FORM = "application/x-www-form-urlencoded";

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": FORM, Origin: server.origin, ...headers },
    body,
    redirect: "manual",
  });
}

const subscriber = (email: string) => storedSubscriber(temp.path, email);

/** Keeps `connections` requests for new list searches in flight until stopped; counts the answers. */
function listFlood(connections: number) {
  let running = true;
  let sent = 0;
  const statuses = new Map<number, number>();
  const loops = Array.from({ length: connections }, async (_, lane) => {
    while (running) {
      const response = await fetch(`${server.origin}/notes?q=flood-${lane}-${sent++}`);
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

test("while a flood of uncached list renders runs, contact (both ways), sign-up, confirm and one-click unsubscribe each succeed every time", async () => {
  const ROUNDS = 8;
  const flood = listFlood(12);
  const answers: Record<string, number[]> = {
    contact: [],
    sentPage: [],
    fetcher: [],
    signUp: [],
    confirm: [],
    unsubscribe: [],
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const contact = await post("/contact", `email=plain-${round}%40example.com&subject=Hi&body=Hello`);
      answers.contact?.push(contact.status);
      await contact.arrayBuffer();
      const sentPage = await fetch(new URL(contact.headers.get("location") ?? "", server.origin));
      answers.sentPage?.push(sentPage.status);
      await sentPage.arrayBuffer();
      const fetcher = await post("/contact.data", `email=fetcher-${round}%40example.com&subject=Hi&body=Hello`);
      answers.fetcher?.push(fetcher.status);
      await fetcher.arrayBuffer();

      const email = `reader-${round}@example.com`;
      const signUp = await fetch(`${server.origin}/api/user`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.origin },
        body: JSON.stringify({ email }),
      });
      answers.signUp?.push(signUp.status);
      await signUp.arrayBuffer();

      const person = subscriber(email);
      const token = confirmToken(TEST_SECRET, person);
      const confirmPage = await fetch(`${server.origin}/updates/confirm?token=${token}`);
      await confirmPage.arrayBuffer();
      const confirm = await post(`/updates/confirm?token=${token}`, `token=${token}`);
      answers.confirm?.push(confirmPage.status, confirm.status);
      await confirm.arrayBuffer();
      expect(subscriber(email).status).toBe("confirmed");

      const unsubscribe = await post(
        `/updates/unsubscribe?token=${unsubscribeToken(TEST_SECRET, person)}`,
        "List-Unsubscribe=One-Click",
        { Origin: "https://mail.example" },
      );
      answers.unsubscribe?.push(unsubscribe.status);
      await unsubscribe.arrayBuffer();
      expect(subscriber(email).status).toBe("unsubscribed");
    }
  } finally {
    const statuses = await flood.stop();
    // The flood did take the render slot: some of its searches were refused meanwhile.
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].sort()).toEqual(statuses.has(200) ? [200, 503] : [503]);
  }
  const count = (statuses: number[] | undefined, status: number) => statuses?.filter((s) => s === status).length;
  expect(count(answers.contact, 303)).toBe(ROUNDS);
  expect(count(answers.sentPage, 200)).toBe(ROUNDS);
  expect(count(answers.fetcher, 202)).toBe(ROUNDS);
  expect(count(answers.signUp, 201)).toBe(ROUNDS);
  expect(count(answers.confirm, 200)).toBe(ROUNDS);
  expect(count(answers.confirm, 303)).toBe(ROUNDS);
  expect(count(answers.unsubscribe, 200)).toBe(ROUNDS);
}, 120_000);

test("an odd path, or its data, gets the one not-found page with 404", async () => {
  const bodies = new Map<boolean, Set<string>>([
    [false, new Set()],
    [true, new Set()],
  ]);
  for (const path of [
    "/no-such-page",
    "/notes/no-such-note/",
    "/%7e/x;y",
    "/a//b/../../c",
    "/x.data",
    "/notes/x.data",
  ]) {
    const response = await fetch(`${server.origin}${path}`, { headers: { "Accept-Encoding": "identity" } });
    expect(response.status, path).toBe(404);
    bodies.get(path.endsWith(".data"))?.add(await response.text());
  }
  const [pages, data] = [[...(bodies.get(false) ?? [])], [...(bodies.get(true) ?? [])]];
  expect(pages).toHaveLength(1);
  expect(pages[0]).toContain('class="page not-found"');
  expect(data).toHaveLength(1);
  expect(data[0]).toContain("routes/not-found");
  const compressed = await fetch(`${server.origin}/nowhere`, { headers: { "Accept-Encoding": "br" } });
  expect(compressed.status).toBe(404);
  expect(compressed.headers.get("Content-Encoding")).toBe("br");
  expect(compressed.headers.get("Content-Security-Policy")).toContain("script-src 'self' 'sha256-");
});
