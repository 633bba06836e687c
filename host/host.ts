import * as build from "virtual:react-router/server-build";
import { catalogue } from "../app/catalogue.server.ts";
import { prepareSiteSearch } from "../app/search.server.ts";
import { defaultHandle } from "../catalogue/handle.ts";
import { SITE_ICON_FILES } from "../outputs/linked-files.ts";
import type { SiteIdentity } from "../services/federation/site-actor.ts";
import { createHttpApp, type HttpOptions } from "./app.ts";

/** Mastodon shows four profile fields. */
const PROFILE_LINKS = 4;

function siteIdentity(siteUrl: string): SiteIdentity {
  const { site } = catalogue;
  return {
    handle: site.handle ?? defaultHandle(site.name),
    name: site.name,
    summary: site.description,
    icon: { path: SITE_ICON_FILES.touch, mediaType: "image/png" },
    links: site.menu
      .slice(0, PROFILE_LINKS)
      .map((link) => ({ name: link.label, url: new URL(link.path, siteUrl).href })),
  };
}

/** The build's entry: React Router's server build and the host around it, one copy of every module. */
export function createHost(options: Omit<HttpOptions, "build">) {
  prepareSiteSearch();
  options.backend.federation.setIdentity(siteIdentity(options.siteUrl));
  return createHttpApp({ ...options, build });
}
