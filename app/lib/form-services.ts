/**
 * What the form routes' actions need from the server, handed to them through React Router's
 * context (server/http.ts fills it for every request). Typed here, in the app, so that the app
 * does not import the server; server/services.ts implements it.
 */
import { createContext } from "react-router";

export type FormResult =
  | { ok: true; status: number }
  | { ok: false; status: number; error: string; field?: string; retryAfter?: number };

export type FormServices = {
  subscribe(input: unknown, ip: string | undefined): Promise<FormResult>;
  sendMessage(input: unknown, ip: string | undefined): Promise<FormResult>;
};

export type FormRequestContext = { services: FormServices; clientIp: string | undefined };

/**
 * The server's own code and the built app each hold a copy of this module, and a context is known
 * by identity: both copies must share one, so it is kept under a global symbol.
 */
const CONTEXT_KEY = Symbol.for("creator-site.form-request-context");
const registry = globalThis as typeof globalThis & {
  [CONTEXT_KEY]?: ReturnType<typeof createContext<FormRequestContext>>;
};
registry[CONTEXT_KEY] ??= createContext<FormRequestContext>();
export const formRequestContext = registry[CONTEXT_KEY];

/** The largest form post accepted: a 5,000-character message percent-encoded, and then some. */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;
