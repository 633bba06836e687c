/**
 * The public origin this build was made for: SITE_URL as catalogue/site-url.ts reads it, baked in
 * at build time by catalogue/vite-plugin.ts (so prerendered and server-rendered pages agree, and
 * `npm start` rebuilds when it changes). Canonical links, Open Graph URLs, feeds and the sitemap
 * use it. Outside Vite (unit tests) it is the default.
 */
import { DEFAULT_SITE_URL } from "../../catalogue/site-url.ts";

declare const __SITE_URL__: string | undefined;

export const SITE_URL: string = typeof __SITE_URL__ === "string" ? __SITE_URL__ : DEFAULT_SITE_URL;
