// The site as one ActivityPub actor, `@<handle>@<host>`, on Fedify: it signs and verifies, answers
// WebFinger and NodeInfo, and delivers through our queue; this module says who the actor is and what a follow does.

import {
  createFederation,
  exportJwk,
  type Federation,
  generateCryptoKeyPair,
  importJwk,
  type KvStore,
  type MessageQueue,
} from "@fedify/fedify";
import {
  Accept,
  Article,
  Create,
  Delete,
  Endpoints,
  Follow,
  Image,
  Note,
  Person,
  PropertyValue,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  Update,
} from "@fedify/vocab";
import { textOfHtml } from "../../catalogue/safe-html.ts";
import { escapeXml } from "../../catalogue/xml.ts";
import type { Db } from "../db/database.ts";
import { checkPageLive } from "../newsletter/live-page.ts";
import { holdReply, type ReplyDeps } from "../replies/announce.ts";
import { ReplyRefused, senderBlocked } from "../replies/store.ts";
import { createKvStore } from "./kv.ts";
import { type Change, hashOf, type Publication, publishChanges } from "./publish.ts";
import { createMessageQueue, type QueueOptions } from "./queue.ts";

/** Who the actor is, from the build being served (content/site.yaml). */
export type SiteIdentity = {
  handle: string;
  name: string;
  summary: string;
  /** A site path, e.g. /apple-touch-icon.png. */
  icon: { path: string; mediaType: string };
  /** Shown as the profile's fields, e.g. Website → the home page. */
  links: { name: string; url: string }[];
};

export type SiteFederation = {
  federation: Federation<void>;
  /** A new build may rename or re-describe the actor; its handle is the identifier Fedify routes. */
  setIdentity(identity: SiteIdentity): void;
  identity(): SiteIdentity | undefined;
  /** Sends a build's new, edited and removed items to followers once their pages are live; resolves when done or given up. */
  publish(items: Publication[]): Promise<void>;
  stop(): Promise<void>;
};

export type FederationSettings = {
  siteUrl: string;
  /** Tests and local trials: fetch from and deliver to loopback over plain http. */
  allowLoopback: boolean;
  queue?: Partial<QueueOptions>;
  startQueue?: boolean;
  /** How long a build's pages may take to be live before its items wait for the next build. */
  liveWait?: { tries: number; intervalMs: number };
  /** Where a reader's reply is held for the owner, who is mailed of it. */
  replies: Omit<ReplyDeps, "db">;
  log: (message: string, error?: unknown) => void;
};

/** Kept in the database, so that every instance signs with the same keys and a restart keeps them. */
export const KEY_PAIRS = ["site", "keyPairs"] as const;
type StoredKeys = { privateKey: JsonWebKey; publicKey: JsonWebKey }[];

/** Generated once, on first need, by whichever instance comes first; the others read the winner's. */
async function siteKeyPairs(kv: KvStore): Promise<CryptoKeyPair[]> {
  let stored = await kv.get<StoredKeys>(KEY_PAIRS);
  if (!stored) {
    const generated = await Promise.all([generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), generateCryptoKeyPair("Ed25519")]);
    const candidate = await Promise.all(
      generated.map(async (pair) => ({
        privateKey: await exportJwk(pair.privateKey),
        publicKey: await exportJwk(pair.publicKey),
      })),
    );
    const won = await kv.cas?.(KEY_PAIRS, undefined, candidate);
    stored = won ? candidate : await kv.get<StoredKeys>(KEY_PAIRS);
    if (!stored) throw new Error("The site's key pairs could neither be stored nor read.");
  }
  return Promise.all(
    stored.map(async (pair) => ({
      privateKey: await importJwk(pair.privateKey, "private"),
      publicKey: await importJwk(pair.publicKey, "public"),
    })),
  );
}

export function createSiteFederation(db: Db, settings: FederationSettings): SiteFederation {
  const kv = createKvStore(db);
  const queue: MessageQueue = createMessageQueue(db, {
    log: (message, error) => settings.log(`[federation] ${message}`, error),
    ...settings.queue,
  });
  let current: SiteIdentity | undefined;
  const federation = createFederation<void>({
    kv,
    queue,
    origin: settings.siteUrl,
    allowPrivateAddress: settings.allowLoopback,
    manuallyStartQueue: true,
  });
  const ownActor = (identifier: string) => current?.handle === identifier;

  federation
    .setActorDispatcher("/ap/actors/{identifier}", async (ctx, identifier) => {
      if (!current || !ownActor(identifier)) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: current.name,
        summary: escapeXml(current.summary),
        url: new URL("/", settings.siteUrl),
        icon: new Image({ url: new URL(current.icon.path, settings.siteUrl), mediaType: current.icon.mediaType }),
        attachments: current.links.map(
          (link) =>
            new PropertyValue({
              name: link.name,
              value: `<a href="${escapeXml(link.url)}" rel="me">${escapeXml(link.url.replace(/^https?:\/\//, ""))}</a>`,
            }),
        ),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        followers: ctx.getFollowersUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        manuallyApprovesFollowers: false,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (ownActor(identifier) ? siteKeyPairs(kv) : []));

  federation
    .setFollowersDispatcher("/ap/actors/{identifier}/followers", async (_ctx, identifier) => {
      if (!ownActor(identifier)) return null;
      const rows = await db.selectFrom("fediverse_followers").selectAll().orderBy("id").execute();
      return {
        items: rows.map((row) => ({
          id: new URL(row.actor_url),
          inboxId: new URL(row.inbox),
          endpoints: row.shared_inbox ? { sharedInbox: new URL(row.shared_inbox) } : null,
        })),
      };
    })
    .setCounter(async () => {
      const row = await db
        .selectFrom("fediverse_followers")
        .select((count) => count.fn.countAll<number>().as("followers"))
        .executeTakeFirstOrThrow();
      return Number(row.followers);
    });

  federation
    .setInboxListeners("/ap/actors/{identifier}/inbox", "/ap/inbox")
    .on(Follow, async (ctx, follow) => {
      const target = follow.objectId && ctx.parseUri(follow.objectId);
      if (!current || target?.type !== "actor" || !ownActor(target.identifier) || !follow.actorId) return;
      if (await senderBlocked(db, { actorUrl: follow.actorId.href, domain: follow.actorId.hostname })) return;
      const follower = await follow.getActor(ctx);
      if (!follower?.id || !follower.inboxId || follower.id.href !== follow.actorId.href) return;
      const row = {
        actor_url: follower.id.href,
        inbox: follower.inboxId.href,
        shared_inbox: follower.endpoints?.sharedInbox?.href ?? null,
        followed_at: new Date().toISOString(),
      };
      await db
        .insertInto("fediverse_followers")
        .values(row)
        .onConflict((conflict) =>
          conflict.column("actor_url").doUpdateSet({ inbox: row.inbox, shared_inbox: row.shared_inbox }),
        )
        .execute();
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({ actor: ctx.getActorUri(target.identifier), object: follow }),
      );
    })
    .on(Create, async (ctx, create) => {
      const note = await create.getObject(ctx);
      if (!(note instanceof Note) || !note.replyTargetId || !create.actorId) return;
      const object = ctx.parseUri(note.replyTargetId);
      const repliedTo = object?.type === "object" ? await publishedRow(object.values.id ?? "") : undefined;
      if (!repliedTo) return;
      const author = await create.getActor(ctx);
      try {
        await holdReply(
          { db, ...settings.replies },
          {
            kind: "fediverse",
            target: repliedTo.publication.path,
            author: {
              name: (author?.name ?? author?.preferredUsername ?? create.actorId.host).toString(),
              url: create.actorId.href,
            },
            text: textOfHtml(note.content?.toString() ?? ""),
            sourceUrl: note.id?.href,
            writtenAt: new Date(note.published?.epochMilliseconds ?? Date.now()),
          },
        );
      } catch (error) {
        if (!(error instanceof ReplyRefused)) throw error;
        settings.log(`[federation] a reply from ${create.actorId.href} was refused: ${error.message}`);
      }
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || !undo.actorId || object.actorId?.href !== undo.actorId.href) return;
      await db.deleteFrom("fediverse_followers").where("actor_url", "=", undo.actorId.href).execute();
    });

  const OBJECT_PATHS = { Article: "/ap/articles/", Note: "/ap/notes/" } as const;
  const objectUri = (change: Pick<Change, "id" | "publication">) =>
    new URL(`${OBJECT_PATHS[change.publication.type]}${change.id}`, settings.siteUrl);

  function objectOf(
    ctx: { getActorUri(id: string): URL; getFollowersUri(id: string): URL },
    change: Pick<Change, "id" | "publication">,
  ) {
    const handle = current?.handle ?? "";
    const { publication } = change;
    const fields = {
      id: objectUri(change),
      attribution: ctx.getActorUri(handle),
      content: publication.html,
      url: new URL(publication.path, settings.siteUrl),
      to: PUBLIC_COLLECTION,
      cc: ctx.getFollowersUri(handle),
    };
    return publication.type === "Article" ? new Article({ ...fields, name: publication.name }) : new Note(fields);
  }

  const publishedRow = async (id: string) => {
    const row = /^\d{1,15}$/.test(id)
      ? await db.selectFrom("fediverse_posts").selectAll().where("id", "=", Number(id)).executeTakeFirst()
      : undefined;
    return row?.state === "published" ? { id: row.id, publication: JSON.parse(row.object) as Publication } : undefined;
  };
  federation.setObjectDispatcher(Article, `${OBJECT_PATHS.Article}{id}`, async (ctx, { id }) => {
    const row = await publishedRow(id);
    return row?.publication.type === "Article" ? (objectOf(ctx, row) as Article) : null;
  });
  federation.setObjectDispatcher(Note, `${OBJECT_PATHS.Note}{id}`, async (ctx, { id }) => {
    const row = await publishedRow(id);
    return row?.publication.type === "Note" ? (objectOf(ctx, row) as Note) : null;
  });

  const OUTBOX_PAGE = 20;
  const createOf = (ctx: Parameters<typeof objectOf>[0], row: Pick<Change, "id" | "publication">) => {
    const handle = current?.handle ?? "";
    return new Create({
      id: new URL(`${objectUri(row).href}#create`),
      actor: ctx.getActorUri(handle),
      to: PUBLIC_COLLECTION,
      cc: ctx.getFollowersUri(handle),
      object: objectOf(ctx, row),
    });
  };
  federation
    .setOutboxDispatcher("/ap/actors/{identifier}/outbox", async (ctx, identifier, cursor) => {
      if (!ownActor(identifier)) return null;
      const offset = cursor && /^\d{1,9}$/.test(cursor) ? Number(cursor) : 0;
      const rows = await db
        .selectFrom("fediverse_posts")
        .select(["id", "object"])
        .where("state", "=", "published")
        .orderBy("id", "desc")
        .limit(OUTBOX_PAGE + 1)
        .offset(offset)
        .execute();
      return {
        items: rows
          .slice(0, OUTBOX_PAGE)
          .map((row) => createOf(ctx, { id: row.id, publication: JSON.parse(row.object) as Publication })),
        nextCursor: rows.length > OUTBOX_PAGE ? String(offset + OUTBOX_PAGE) : null,
      };
    })
    .setFirstCursor((_ctx, identifier) => (ownActor(identifier) ? "0" : null))
    .setCounter(async () => {
      const row = await db
        .selectFrom("fediverse_posts")
        .select((count) => count.fn.countAll<number>().as("posts"))
        .where("state", "=", "published")
        .executeTakeFirstOrThrow();
      return Number(row.posts);
    });

  async function send(change: Change) {
    if (!current) return;
    const ctx = federation.createContext(new URL(settings.siteUrl), undefined);
    const actor = ctx.getActorUri(current.handle);
    const object = objectOf(ctx, change);
    const id = new URL(`${objectUri(change).href}#${change.kind}-${hashOf(change.publication).slice(0, 16)}`);
    const addressed = { id, actor, to: PUBLIC_COLLECTION, cc: ctx.getFollowersUri(current.handle) };
    const activity =
      change.kind === "create"
        ? new Create({ ...addressed, object })
        : change.kind === "update"
          ? new Update({ ...addressed, object })
          : new Delete({ ...addressed, object: new Tombstone({ id: objectUri(change) }) });
    await ctx.sendActivity({ identifier: current.handle }, "followers", activity, { preferSharedInbox: true });
  }

  async function publish(items: Publication[]) {
    const { tries, intervalMs } = settings.liveWait ?? { tries: 120, intervalMs: 5_000 };
    const deps = {
      isLive: async (path: string) => (await checkPageLive(new URL(path, settings.siteUrl).href)).live,
      hasFollowers: async () => Boolean(await db.selectFrom("fediverse_followers").select("id").executeTakeFirst()),
      send,
    };
    for (let attempt = 0; attempt < tries && !stopping.signal.aborted; attempt++) {
      try {
        const { waiting } = await publishChanges(db, items, deps);
        if (waiting === 0) return;
      } catch (error) {
        settings.log("[federation] could not publish to followers; tried again", error);
      }
      await new Promise((done) => setTimeout(done, intervalMs));
    }
  }

  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => ({
    software: { name: "creator-site", version: "1.0.0", homepage: new URL("/", settings.siteUrl) },
    protocols: ["activitypub"],
    openRegistrations: false,
    usage: { users: { total: 1, activeMonth: 1, activeHalfyear: 1 }, localPosts: 0, localComments: 0 },
  }));

  const stopping = new AbortController();
  const running =
    settings.startQueue === false ? Promise.resolve() : federation.startQueue(undefined, { signal: stopping.signal });
  return {
    federation,
    setIdentity(identity) {
      current = identity;
    },
    identity: () => current,
    publish,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
