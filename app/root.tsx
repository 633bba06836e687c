import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { FEEDS, SITE_ICON_FILES, WEBMENTION_PATH } from "../outputs/linked-files.ts";
import type { Route } from "./+types/root";
import { siteSummary } from "./catalogue.server.ts";
import { NotFound } from "./components/NotFound.tsx";
import { ScrollToTop } from "./components/ScrollToTop.tsx";
import { SiteFooter } from "./components/SiteFooter.tsx";
import { SiteHeader } from "./components/SiteHeader.tsx";
import { sentForm } from "./lib/form-actions.server.ts";
import { useHydrated } from "./lib/hydrated.ts";
import { inlineMarker } from "./lib/inline-marker.ts";
import { DEFAULT_TITLE } from "./lib/meta.ts";
import { pageHandleOf, wantsHydration } from "./lib/page-handle.ts";
import { playerProbeScript } from "./lib/player-probe.ts";
import { SITE_URL } from "./lib/site-url.ts";
import { searchAssets } from "./search.server.ts";
import { SPECULATION_RULES, shellScriptProps } from "./shell/shell.ts";
import siteCss from "./styles/site.css?inline";
import stylesheet from "./styles/site.css?url";

// Only the server renders the inline CSS, so the browser bundle leaves it out.
const inlineCss = import.meta.env.SSR ? siteCss : "";

export const links: Route.LinksFunction = () => [
  // The PNG: Chromium makes a whole document of an SVG icon, text and fonts included, on every page.
  { rel: "icon", href: SITE_ICON_FILES.touch, type: "image/png" },
  { rel: "apple-touch-icon", href: SITE_ICON_FILES.touch },
  ...Object.values(FEEDS).map((feed) => ({
    rel: "alternate",
    type: "application/atom+xml",
    href: feed.path,
    title: feed.title,
  })),
  { rel: "webmention", href: new URL(WEBMENTION_PATH, SITE_URL).href },
];

export function loader({ url, context }: Route.LoaderArgs) {
  return { site: siteSummary(), search: searchAssets, sent: sentForm(url, context) };
}

// Fixed at build time; otherwise every keystroke in a list's search asked the server for it again.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  // Once React runs it stays: a client-side move to a page without scripts keeps the runtime.
  const hydrated = useHydrated();
  const matches = useMatches();
  const interactive = hydrated || wantsHydration(matches);
  const players = pageHandleOf(matches)?.players;
  // The server marks the inline scripts and style it writes; the page the browser gets has no mark left.
  const nonce = import.meta.env.SSR ? inlineMarker() : undefined;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script
          {...shellScriptProps}
          nonce={nonce}
          data-search-module={data?.search.module}
          data-search-index={data?.search.index}
        />
        {players && (
          // It runs once, in the served page: the browser bundle leaves its text out.
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? playerProbeScript(players) : "" }}
          />
        )}
        <Meta />
        <Links />
        {/* Inline CSS (3 kB gzip) saves a round trip; hydrating pages link the file, cached across moves. */}
        {interactive ? (
          <link rel="stylesheet" href={stylesheet} />
        ) : (
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: inlineCss }} />
        )}
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {data && <SiteHeader site={data.site} />}
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        {data && <SiteFooter site={data.site} />}
        <ScrollToTop />
        {interactive ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <script nonce={nonce} type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
        )}
      </body>
    </html>
  );
}

export default function App() {
  useEffect(() => {
    // Lets tests (and CSS, if ever needed) tell the server-rendered page from the interactive one.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <div className="page">
      <title>{DEFAULT_TITLE}</title>
      <h1>Something went wrong</h1>
      <p>Sorry, this page could not be shown. Please try again in a moment.</p>
    </div>
  );
}
