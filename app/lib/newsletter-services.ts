/**
 * What the confirm and unsubscribe pages need from the server, handed to their loaders and
 * actions through React Router's context (server/http.ts fills it for every request). Typed here,
 * in the app, so that the app does not import the server; server/backend.ts implements it.
 */
import { createContext } from "react-router";

export type NewsletterLinks = {
  /** `valid`: a pending sign-up the button confirms; `confirmed`: already done; `invalid`: forged, expired or used. */
  checkConfirm(token: string): Promise<"valid" | "confirmed" | "invalid">;
  confirm(token: string): Promise<"confirmed" | "invalid">;
  /** `valid`: the token names a subscriber (whatever their status). */
  checkUnsubscribe(token: string): Promise<"valid" | "invalid">;
  unsubscribe(token: string): Promise<"unsubscribed" | "invalid">;
};

/** Shared under a global symbol: the server's code and the built app each hold a copy of this module. */
const CONTEXT_KEY = Symbol.for("creator-site.newsletter-links-context");
const registry = globalThis as typeof globalThis & {
  [CONTEXT_KEY]?: ReturnType<typeof createContext<NewsletterLinks>>;
};
registry[CONTEXT_KEY] ??= createContext<NewsletterLinks>();
export const newsletterLinksContext = registry[CONTEXT_KEY];
