/** The shape of bench/results.json: every section either has its figures or says why it has none. */
import type { AmplificationFigures } from "./amplification.ts";
import type { BounceMailboxFigures } from "./bounce-mailbox.ts";
import type { BuildRuns } from "./build-phases.ts";
import type { BytesResult } from "./bytes.ts";
import type { FediverseFigures } from "./fediverse.ts";
import type { LighthousePage } from "./lighthouse.ts";
import type { LoadFigures } from "./load.ts";
import type { MainThreadFigures } from "./main-thread.ts";
import type { KeystrokeFigures } from "./measure-keystrokes.ts";
import type { NavigationFigures } from "./navigation.ts";
import type { NewsletterFigures } from "./newsletter.ts";
import type { SearchFigures } from "./search.ts";
import type { SearchCostFigures } from "./search-cost.ts";
import type { TypingCheck } from "./typing-check.ts";

export type Section<T> = ({ status: "ok" } & T) | { status: "failed" | "skipped"; reason: string };

export type ServedLoad = LoadFigures & { server: string; encoding: string };

export type Results = {
  date: string;
  machine: {
    node: string;
    chromium: string;
    cpus: number;
    loadAverageAtStart: number;
    loadAverageAtEnd: number;
  };
  durationSeconds: number;
  build: Section<{ seconds: number }>;
  /** Builds timed: the sample cold, unchanged and after one edit, generated catalogues, Astro's blog template. */
  buildPhases: Section<BuildRuns>;
  lighthouse: Section<{
    runsPerPage: number;
    note: string;
    blockedUrlPatterns: string[];
    skippedAudits: string[];
    pages: LighthousePage[];
  }>;
  bytes: Section<BytesResult>;
  pageLoad: Section<{
    paths: string[];
    connections: number;
    seconds: number;
    acceptEncoding: string;
    node: ServedLoad;
    nginx: Section<ServedLoad>;
    /** Node's requests per second over nginx's. */
    ratio: number | null;
  }>;
  signups: Section<{ connections: number; seconds: number; figures: LoadFigures }>;
  /** The API's latency alone and while 20 connections ask for filtered lists. */
  amplification: Section<AmplificationFigures>;
  /** The same sign-up load with the data in PostgreSQL (a throwaway local cluster). */
  signupsPostgres: Section<{ connections: number; seconds: number; figures: LoadFigures }>;
  /** A newsletter send delivered by one, then two instances on PostgreSQL. */
  newsletterPostgres: Section<{ recipients: number; runs: NewsletterRun[] }>;
  keystrokes: {
    /** `catalogueNotes`: notes in the catalogue; `notes`: entries on screen before typing. */
    real: Section<{ catalogueNotes: number } & KeystrokeFigures & { fastTyping: TypingCheck }>;
    large: Section<
      {
        catalogueNotes: number;
        generatedNotes: number;
        buildSeconds: number;
      } & KeystrokeFigures & {
          fastTyping: TypingCheck;
        }
    >;
  };
  /** Opening a page from a page with React on a slow link; absent in results written before it was measured. */
  navigation?: Section<{ journeys: NavigationFigures[] }>;
  /** The site search at the sample's size and at 10,000 notes; absent in results written before it existed. */
  search?: { real: Section<SearchFigures>; large: Section<SearchFigures> };
  /** The costliest queries, fairness between visitors, memory after unique queries; absent before it was measured. */
  searchCost?: Section<SearchCostFigures>;
  /** Our content pages' main-thread work beside Astro's blog post; absent before it was measured. */
  mainThread?: Section<MainThreadFigures>;
  /** Absent in results written before the newsletter was measured. */
  newsletter?: Section<NewsletterFigures>;
  /** Absent in results written before the bounce mailbox was measured. */
  bounceMailbox?: Section<BounceMailboxFigures>;
  /** Absent in results written before the fediverse door was measured. */
  fediverse?: Section<FediverseFigures>;
  budgets: Budget[];
};

export type NewsletterRun = { instances: number; seconds: number; mailsPerSecond: number };

export type Budget = { check: string; limit: string; actual: string; result: "pass" | "FAIL" | "n/a" };

export function ok<T>(section: Section<T>): (T & { status: "ok" }) | null {
  return section.status === "ok" ? (section as T & { status: "ok" }) : null;
}
