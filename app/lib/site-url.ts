// Baked in at build time, so prerendered and server-rendered pages agree; outside Vite it is the default.
import { DEFAULT_SITE_URL } from "../../catalogue/site-url.ts";

declare const __SITE_URL__: string | undefined;

export const SITE_URL: string = typeof __SITE_URL__ === "string" ? __SITE_URL__ : DEFAULT_SITE_URL;
