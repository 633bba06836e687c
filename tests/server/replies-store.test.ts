/**
 * The replies store on the project's database: every reply kept with the status its door gives it,
 * its text made safe once, the owner's decisions, and blocks that hold a sender's replies back and count them.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { REPLY_LIMITS } from "../../rules/forms.ts";
import type { Database } from "../../services/db/database.ts";
import {
  approvedReplies,
  blockSender,
  confirmReply,
  getReply,
  type IncomingReply,
  listBlocks,
  listReplies,
  moderateReply,
  ReplyRefused,
  receiveReply,
  senderBlocked,
} from "../../services/replies/store.ts";
import { databaseConfig, makeTempDir, openTestDatabase } from "./helpers.ts";

let temp: ReturnType<typeof makeTempDir>;
let database: Database;

beforeEach(async () => {
  temp = makeTempDir();
  database = await openTestDatabase(await databaseConfig(temp.path));
});
afterEach(async () => {
  await database.close();
  temp.remove();
});

const reply = (overrides: Partial<IncomingReply> = {}): IncomingReply => ({
  kind: "webmention",
  target: "/write/fear",
  author: { name: "Sample Reader", url: "https://reader.example/" },
  text: "A sample reply.",
  sourceUrl: "https://reader.example/replies/1",
  writtenAt: new Date("2026-01-02T10:00:00Z"),
  ...overrides,
});

describe("receiving", () => {
  test("a form reply waits for its address, any other door's reply waits for the owner", async () => {
    const form = await receiveReply(
      database.db,
      reply({ kind: "form", author: { name: "A", address: "a@example.com" } }),
    );
    const mention = await receiveReply(database.db, reply());
    expect(form.status).toBe("unconfirmed");
    expect(mention.status).toBe("pending");
    expect((await getReply(database.db, mention.id))?.author_name).toBe("Sample Reader");
  });

  test("text keeps its words but never markup: script is shown as text, links are nofollow ugc", async () => {
    const { id } = await receiveReply(
      database.db,
      reply({ text: '<script>alert("x")</script> see https://reader.example/a?b=1&c=2.\n\nSecond line' }),
    );
    const stored = await getReply(database.db, id);
    expect(stored?.text).toContain("<script>");
    expect(stored?.html).not.toContain("<script");
    expect(stored?.html).toContain("&lt;script&gt;");
    expect(stored?.html).toContain('<a href="https://reader.example/a?b=1&amp;c=2" rel="nofollow ugc">');
    expect(stored?.html).toContain("<p>Second line</p>");
  });

  test("a javascript: address in the text is never made a link", async () => {
    const { id } = await receiveReply(database.db, reply({ text: "javascript:alert(1) and http://ok.example/" }));
    const html = (await getReply(database.db, id))?.html ?? "";
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('href="http://ok.example/"');
  });
});

describe("refusing bad input with a clear error and storing nothing", () => {
  const bad: [string, Partial<IncomingReply>, RegExp][] = [
    ["a name with CR/LF", { author: { name: "Reader\r\nBcc: x@example.com" } }, /name must be one line/],
    ["an empty name", { author: { name: "  " } }, /name must have 1 to 100 characters/],
    ["a huge text", { text: "x".repeat(REPLY_LIMITS.textMaxLength + 1) }, /text must have 1 to 10000 characters/],
    ["an empty text", { text: "\n " }, /text must have/],
    ["a page that is not a post", { target: "/../etc/passwd" }, /target is not an essay or a book note/],
    [
      "a javascript: site",
      { author: { name: "A", url: "javascript:alert(1)" } },
      /url must be an http or https address/,
    ],
    ["a malformed address", { author: { name: "A", address: "not an address" } }, /address is not an email address/],
    ["an invalid date", { writtenAt: new Date("no date") }, /writtenAt is not a date/],
  ];
  test.each(bad)("%s", async (_, overrides, message) => {
    const refused = receiveReply(database.db, reply(overrides));
    await expect(refused).rejects.toThrow(ReplyRefused);
    await expect(refused).rejects.toThrow(message);
    expect(await listReplies(database.db)).toEqual([]);
  });
});

describe("moderating", () => {
  test("approved replies to a page come in the order written, and nothing else shows", async () => {
    const later = await receiveReply(
      database.db,
      reply({ text: "later", writtenAt: new Date("2026-02-01T00:00:00Z") }),
    );
    const earlier = await receiveReply(
      database.db,
      reply({ text: "earlier", writtenAt: new Date("2026-01-01T00:00:00Z") }),
    );
    const refused = await receiveReply(database.db, reply({ text: "refused" }));
    await receiveReply(database.db, reply({ text: "waiting" }));
    await receiveReply(database.db, reply({ text: "elsewhere", target: "/notes/other" }));
    for (const { id } of [later, earlier])
      expect((await moderateReply(database.db, id, "approved"))?.status).toBe("approved");
    await moderateReply(database.db, refused.id, "rejected");
    expect((await approvedReplies(database.db, "/write/fear")).map((row) => row.text)).toEqual(["earlier", "later"]);
  });

  test("an unconfirmed reply cannot be approved until its address is confirmed, once", async () => {
    const { id } = await receiveReply(
      database.db,
      reply({ kind: "form", author: { name: "A", address: "a@example.com" } }),
    );
    expect(await moderateReply(database.db, id, "approved")).toBeUndefined();
    expect((await confirmReply(database.db, id))?.status).toBe("pending");
    expect(await confirmReply(database.db, id)).toBeUndefined();
    expect((await moderateReply(database.db, id, "approved"))?.status).toBe("approved");
  });

  test("the list filters by status", async () => {
    await receiveReply(database.db, reply());
    await receiveReply(database.db, reply({ kind: "form", author: { name: "A", address: "a@example.com" } }));
    expect((await listReplies(database.db, { status: "pending" })).length).toBe(1);
    expect((await listReplies(database.db)).length).toBe(2);
  });
});

describe("blocking", () => {
  test("a blocked domain holds back its sender's later replies, stores them as blocked and counts them", async () => {
    await blockSender(database.db, "Reader.Example");
    expect(await senderBlocked(database.db, { domain: "reader.example" })).toBe(true);
    expect(await senderBlocked(database.db, { actorUrl: "https://sub.reader.example/users/a" })).toBe(true);
    expect(await senderBlocked(database.db, { domain: "other.example" })).toBe(false);
    expect((await receiveReply(database.db, reply())).status).toBe("blocked");
    expect((await receiveReply(database.db, reply())).status).toBe("blocked");
    expect(await listBlocks(database.db)).toEqual([expect.objectContaining({ value: "reader.example", dropped: 2 })]);
    expect(await approvedReplies(database.db, "/write/fear")).toEqual([]);
  });

  test("blocking an address holds its waiting replies too, and a blocked reply cannot be approved", async () => {
    const { id } = await receiveReply(
      database.db,
      reply({ kind: "form", author: { name: "A", address: "Someone@Example.com" }, sourceUrl: undefined }),
    );
    expect(await blockSender(database.db, "someone@example.com")).toEqual({ value: "someone@example.com", held: 1 });
    expect((await getReply(database.db, id))?.status).toBe("blocked");
    expect(await moderateReply(database.db, id, "approved")).toBeUndefined();
    expect(await senderBlocked(database.db, { address: "SOMEONE@example.com" })).toBe(true);
  });

  test("an actor URL blocks that actor only, and blocking twice is one block", async () => {
    await blockSender(database.db, "https://social.example/users/troll");
    await blockSender(database.db, "https://social.example/users/troll");
    expect(await senderBlocked(database.db, { actorUrl: "https://social.example/users/troll" })).toBe(true);
    expect(await senderBlocked(database.db, { actorUrl: "https://social.example/users/friend" })).toBe(false);
    expect((await listBlocks(database.db)).length).toBe(1);
  });

  test("a block naming nothing is refused with a clear error", async () => {
    await expect(blockSender(database.db, "  ")).rejects.toThrow(/actor URL, a domain or an address/);
  });
});
