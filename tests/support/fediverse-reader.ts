/**
 * A second fediverse server for the tests: a real Fedify federation in the test process, served on
 * 127.0.0.1, with one actor (`reader`) that follows, unfollows and records what its inbox receives.
 */
import type { AddressInfo } from "node:net";
import { createFederation, generateCryptoKeyPair, MemoryKvStore } from "@fedify/fedify";
import { Activity, Create, Endpoints, Follow, Note, Person, Undo } from "@fedify/vocab";
import { type ServerType, serve } from "@hono/node-server";

export type FediverseReader = {
  origin: string;
  actorUrl: string;
  /** Every activity its inbox accepted, signature verified. */
  received: Activity[];
  follow(actorUrl: string): Promise<Follow>;
  unfollow(follow: Follow): Promise<void>;
  /** Sends the actor a public Note that replies to `inReplyTo`. */
  reply(actorUrl: string, inReplyTo: string, text: string): Promise<void>;
  /** Closes its port (a stopped server); `start()` opens the same one again. */
  stop(): Promise<void>;
  start(): Promise<void>;
};

export async function startFediverseReader(): Promise<FediverseReader> {
  const keys = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5")];
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  const received: Activity[] = [];
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (identifier !== "reader") return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: "Test Reader",
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pairs[0]?.cryptographicKey,
        assertionMethods: pairs.map((pair) => pair.multikey),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === "reader" ? keys : []));
  federation.setInboxListeners("/users/{identifier}/inbox", "/inbox").on(Activity, (_ctx, activity) => {
    received.push(activity);
  });

  let server: ServerType | undefined;
  let port = 0;
  const start = () =>
    new Promise<void>((done) => {
      server = serve(
        { fetch: (request) => federation.fetch(request, { contextData: undefined }), hostname: "127.0.0.1", port },
        (info: AddressInfo) => {
          port = info.port;
          done();
        },
      );
    });
  await start();
  const origin = `http://127.0.0.1:${port}`;
  const context = () => federation.createContext(new URL(origin), undefined);
  let follows = 0;
  let notes = 0;
  return {
    origin,
    actorUrl: `${origin}/users/reader`,
    received,
    async follow(actorUrl) {
      const ctx = context();
      const followed = await ctx.lookupObject(actorUrl);
      if (!(followed instanceof Person) || !followed.id) throw new Error(`${actorUrl} is not a Person`);
      const follow = new Follow({
        id: new URL(`/follows/${++follows}`, origin),
        actor: ctx.getActorUri("reader"),
        object: followed.id,
      });
      await ctx.sendActivity({ identifier: "reader" }, followed, follow);
      return follow;
    },
    async unfollow(follow) {
      const ctx = context();
      const followed = await ctx.lookupObject(follow.objectId?.href ?? "");
      if (!(followed instanceof Person)) throw new Error("The followed actor is gone");
      const undo = new Undo({
        id: new URL(`${follow.id?.href}/undo`),
        actor: ctx.getActorUri("reader"),
        object: follow,
      });
      await ctx.sendActivity({ identifier: "reader" }, followed, undo);
    },
    async reply(actorUrl, inReplyTo, text) {
      const ctx = context();
      const repliedTo = await ctx.lookupObject(actorUrl);
      if (!(repliedTo instanceof Person)) throw new Error(`${actorUrl} is not a Person`);
      const note = new Note({
        id: new URL(`/notes/${++notes}`, origin),
        attribution: ctx.getActorUri("reader"),
        replyTarget: new URL(inReplyTo),
        content: `<p>${text}</p>`,
      });
      const create = new Create({
        id: new URL(`${note.id?.href}/create`),
        actor: ctx.getActorUri("reader"),
        object: note,
      });
      await ctx.sendActivity({ identifier: "reader" }, repliedTo, create);
    },
    stop: () =>
      new Promise<void>((done, fail) => {
        if (!server) return done();
        server.close((error) => (error ? fail(error) : done()));
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server = undefined;
      }),
    start,
  };
}
