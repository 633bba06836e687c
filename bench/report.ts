/** The printed report: a few titled tables of the same figures as bench/results.json. */

import { describeBounceMailbox } from "./bounce-mailbox.ts";
import { describeFediverse } from "./fediverse.ts";
import type { LoadFigures } from "./load.ts";
import { describeNewsletter } from "./newsletter.ts";
import { ok, type Results, type Section } from "./results.ts";
import { kB } from "./stats.ts";
import { type Cell, table } from "./table.ts";

function failed(title: string, section: Section<unknown>): string | null {
  if (section.status === "ok") return null;
  return `${title}\n  ${section.status}: ${section.reason}\n`;
}

function minutes(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
}

function buildPhasesTable(section: Results["buildPhases"]): string {
  const title = "Builds (npm run build), seconds";
  const figures = ok(section);
  if (!figures) return failed(title, section) ?? "";
  const rows: Cell[][] = figures.runs.map((run) => [
    run.label,
    run.notes,
    run.pages,
    run.cards,
    run.totalSeconds,
    run.cpuSeconds,
    Math.round((run.totalSeconds / run.pages) * 1000 * 10) / 10,
    run.peakMemoryMB,
  ]);
  return table(title, ["build", "notes", "pages", "cards", "total", "CPU s", "s/1000 pages", "peak MB"], rows, [
    "CPU s and peak MB: the build's process tree, polled every 250 ms.",
    figures.astroMissing
      ? `Astro's blog template not built: ${figures.astroMissing}.`
      : "Astro's blog template (bench/astro-blog/): one post per note of the 2,000-note copy, built right after it.",
  ]);
}

export function renderReport(results: Results): string {
  const parts: string[] = [];
  const { machine } = results;
  parts.push(
    `Benchmark of ${results.date}: Node ${machine.node}, ${machine.chromium}, ${machine.cpus} CPUs, ` +
      `load average ${machine.loadAverageAtStart} at start and ${machine.loadAverageAtEnd} at end` +
      // At the end the average includes the benchmark's own load; at the start only others'.
      (machine.loadAverageAtStart > machine.cpus / 2
        ? " (the machine was busy at start: timings may be inflated)"
        : ""),
    "",
  );

  const build = ok(results.build);
  parts.push(build ? `Build (npm run build): ${build.seconds} s\n` : (failed("Build", results.build) ?? ""));
  parts.push(buildPhasesTable(results.buildPhases));

  const lighthouseTitle = "Lighthouse 12: mobile, default (simulated) throttling";
  const lighthouse = ok(results.lighthouse);
  if (!lighthouse) parts.push(failed(lighthouseTitle, results.lighthouse) ?? "");
  else {
    const rows: Cell[][] = lighthouse.pages.map((page) => [
      page.path,
      page.performance,
      page.accessibility,
      page.bestPractices,
      page.seo,
      page.fcpMs,
      page.lcpMs,
      page.tbtMs,
      page.cls,
      page.transferBytes === null ? null : kB(page.transferBytes),
      page.runs,
    ]);
    const notes = [
      `Median of ${lighthouse.runsPerPage} run(s) per page${lighthouse.note ? ` (${lighthouse.note})` : ""}.`,
      `Third-party players blocked (unreachable here): ${lighthouse.blockedUrlPatterns.join(", ")}.`,
      `Skipped audits of weight 0 (no effect on scores): ${lighthouse.skippedAudits.join(", ")}.`,
    ];
    // Audit → the pages where it scored below 1, in how many of their runs.
    const audits = new Map<string, { path: string; runs: number; of: number }[]>();
    for (const page of lighthouse.pages) {
      for (const [id, runs] of Object.entries(page.failing)) {
        audits.set(id, [...(audits.get(id) ?? []), { path: page.path, runs, of: page.runs }]);
      }
    }
    if (audits.size) notes.push("Audits below a full score (page runs/of):");
    for (const [id, pages] of [...audits].sort(([a], [b]) => a.localeCompare(b))) {
      const always = pages.length === lighthouse.pages.length && pages.every((page) => page.runs === page.of);
      notes.push(
        `  ${id}: ${always ? "every page, every run" : pages.map((p) => `${p.path} ${p.runs}/${p.of}`).join(", ")}`,
      );
    }
    for (const page of lighthouse.pages) {
      for (const message of page.consoleErrors) notes.push(`${page.path}: console error: ${message}`);
      for (const error of page.errors) notes.push(`${page.path}: a run failed: ${error}`);
    }
    parts.push(
      table(
        lighthouseTitle,
        ["Page", "Perf", "A11y", "Best pr.", "SEO", "FCP ms", "LCP ms", "TBT ms", "CLS", "kB sent", "Runs"],
        rows,
        notes,
      ),
    );
  }

  const bytesTitle = "Page weight in kB (1 kB = 1,000 bytes; gzip level 9; JS = every script loaded until idle)";
  const bytes = ok(results.bytes);
  if (!bytes) parts.push(failed(bytesTitle, results.bytes) ?? "");
  else {
    parts.push(
      table(
        bytesTitle,
        ["Page", "Hydrates", "HTML", "HTML gz", "Shared JS", "gz", "Own JS", "gz", "Total JS", "gz", "Own chunks"],
        bytes.pages.map((page) => [
          page.path,
          page.hydrates ? "yes" : "no",
          kB(page.html.raw),
          kB(page.html.gzip),
          kB(page.sharedJs.raw),
          kB(page.sharedJs.gzip),
          kB(page.ownJs.raw),
          kB(page.ownJs.gzip),
          kB(page.totalJs.raw),
          kB(page.totalJs.gzip),
          page.ownChunks.length,
        ]),
        [
          "Shared = the runtime every page loads: entry.client (React, React DOM, React Router), its imports, the",
          `  route manifest, and the root route with its imports: ${bytes.sharedChunks.join(", ")}.`,
          "Own = the rest of what the page loads: its route module and what it imports. Other hosts blocked.",
          "Hydrates = the page ships module scripts; every other page loads no JavaScript but the inline shell script.",
        ],
      ),
    );
  }

  const load = ok(results.pageLoad);
  const signups = ok(results.signups);
  const signupsPostgres = results.signupsPostgres ? ok(results.signupsPostgres) : null;
  const loadTitle = "HTTP load (autocannon, in-process; after a 2 s warm-up)";
  const loadRows: Cell[][] = [];
  const loadNotes: string[] = [];
  if (load) {
    const label = (server: string, encoding: string) => `${server}, ${load.paths.length} pages (${encoding})`;
    const nginx = ok(load.nginx);
    for (const figures of [load.node, ...(nginx ? [nginx] : [])]) {
      loadRows.push([
        `GET ${label(figures.server, figures.encoding)}`,
        load.connections,
        load.seconds,
        figures.requestsPerSecond,
        figures.p50Ms,
        figures.p99Ms,
        figures.bytesPerResponse,
        figures.non2xx,
        figures.errors,
      ]);
    }
    loadNotes.push(
      `Pages, in turn on each connection: ${load.paths.join(" ")}; Accept-Encoding: ${load.acceptEncoding}.`,
    );
    if (load.nginx.status !== "ok") loadNotes.push(`nginx: ${load.nginx.reason}`);
    else loadNotes.push(`Node server / nginx requests per second: ${load.ratio}.`);
  } else if (results.pageLoad.status !== "ok") {
    loadNotes.push(`Prerendered pages: ${results.pageLoad.status}: ${results.pageLoad.reason}`);
  }
  if (signups) {
    const figures = signups.figures;
    loadRows.push([
      "POST /api/user, a new email each (SQLite)",
      signups.connections,
      signups.seconds,
      figures.requestsPerSecond,
      figures.p50Ms,
      figures.p99Ms,
      figures.bytesPerResponse,
      figures.non2xx,
      figures.errors,
    ]);
    loadNotes.push("Sign-ups: RATE_LIMIT=0, Origin = SITE_URL, a temporary DATA_DIR; req/s counts 2xx answers only.");
    if (signupsPostgres) {
      const figures = signupsPostgres.figures;
      loadRows.push([
        "POST /api/user, a new email each (PostgreSQL)",
        signupsPostgres.connections,
        signupsPostgres.seconds,
        figures.requestsPerSecond,
        figures.p50Ms,
        figures.p99Ms,
        figures.bytesPerResponse,
        figures.non2xx,
        figures.errors,
      ]);
      loadNotes.push(
        "PostgreSQL: a throwaway local cluster (initdb, fsync on like SQLite's FULL sync), one server instance, the same build and load.",
      );
    } else if (results.signupsPostgres && results.signupsPostgres.status !== "ok") {
      loadNotes.push(`Sign-ups on PostgreSQL: ${results.signupsPostgres.status}: ${results.signupsPostgres.reason}`);
    }
  } else if (results.signups.status !== "ok") {
    loadNotes.push(`Sign-ups: ${results.signups.status}: ${results.signups.reason}`);
  }
  parts.push(
    table(
      loadTitle,
      ["Requests", "Conns", "Secs", "2xx/s", "p50 ms", "p99 ms", "Bytes/resp", "Non-2xx", "Errors"],
      loadRows,
      loadNotes,
    ),
  );

  const amplificationTitle = "The API under list load (autocannon, in-process)";
  const amplification = ok(results.amplification);
  if (!amplification) parts.push(failed(amplificationTitle, results.amplification) ?? "");
  else {
    const row = (label: string, figures: LoadFigures, connections: number): Cell[] => [
      label,
      connections,
      figures.requestsPerSecond,
      figures.p50Ms,
      figures.p99Ms,
      figures.non2xx,
      figures.errors,
    ];
    const rows: Cell[][] = [row("POST /api/user alone", amplification.apiAlone, amplification.apiConnections)];
    for (const load of amplification.withLists) {
      rows.push(row(`POST /api/user, lists loaded`, load.api, amplification.apiConnections));
      rows.push(row(`  GET ${load.query}`, load.list, amplification.listConnections));
    }
    parts.push(
      table(amplificationTitle, ["Requests", "Conns", "2xx/s", "p50 ms", "p99 ms", "Non-2xx", "Errors"], rows, [
        `${amplification.seconds} s each; the API measured while the list load runs; non-2xx of a list are 503s`,
        "beyond RENDER_CONCURRENCY. /notes?q=x is answered from the render cache; a new query each time renders.",
        ...(amplification.oddPaths
          ? [
              `${amplification.oddPaths.requests} GETs of odd paths: RSS ${amplification.oddPaths.rssBeforeMb} → ${amplification.oddPaths.rssAfterMb} MB; answers ${JSON.stringify(amplification.oddPaths.statuses)}.`,
            ]
          : []),
      ]),
    );
  }

  const newsletterPostgres = results.newsletterPostgres ? ok(results.newsletterPostgres) : null;
  if (newsletterPostgres) {
    parts.push(
      table(
        `Newsletter on PostgreSQL: a send of ${newsletterPostgres.recipients} recipients, NEWSLETTER_RATE=unlimited`,
        ["Instances", "Seconds", "Mails/s"],
        newsletterPostgres.runs.map((run) => [run.instances, run.seconds, run.mailsPerSecond]),
        ["Each instance a production server process; a local SMTP server that only counts; durable PostgreSQL."],
      ),
    );
  } else if (results.newsletterPostgres && results.newsletterPostgres.status !== "ok") {
    parts.push(
      `Newsletter on PostgreSQL: ${results.newsletterPostgres.status}: ${results.newsletterPostgres.reason}\n`,
    );
  }

  const keyRows: Cell[][] = [];
  const keyNotes: string[] = [];
  for (const [label, section] of [
    ["real catalogue", results.keystrokes.real],
    ["generated", results.keystrokes.large],
  ] as const) {
    const figures = ok(section);
    if (figures) {
      const typing = figures.fastTyping;
      keyRows.push([
        label,
        figures.catalogueNotes,
        figures.notes,
        figures.keystrokes,
        figures.medianMs,
        figures.p95Ms,
        figures.maxMs,
        typing.lost ? `${typing.lost}/${typing.tries} lost keys` : `${typing.tries}/${typing.tries} ok`,
      ]);
      if (typing.lost) {
        keyNotes.push(`${label}: typing "${typing.typed}" without pauses left "${typing.example}" in the box.`);
      }
    } else if (section.status !== "ok") keyNotes.push(`${label}: ${section.status}: ${section.reason}`);
  }
  const large = ok(results.keystrokes.large);
  if (large) {
    keyNotes.push(
      `Generated: a temporary copy with ${large.generatedNotes.toLocaleString("en-US")} generated notes added, ` +
        `built in ${large.buildSeconds} s.`,
    );
  }
  keyNotes.push(
    'Query "the habit" typed and erased 3 times, each key once the page has settled; from the key event to the',
    "first frame that shows the list for the text typed. Fast typing: the query typed without pauses, 3 fresh pages.",
  );
  parts.push(
    table(
      "Notes search: keystroke to screen, ms",
      ["Catalogue", "Notes", "On screen", "Keys", "Median", "p95", "Max", "Fast typing"],
      keyRows,
      keyNotes,
    ),
  );

  if (results.navigation) {
    const navigation = ok(results.navigation);
    parts.push(
      navigation
        ? table(
            "Opening a page from a page with React, ms (150 ms round trip, 1.6 Mbps)",
            ["Journey", "Runs", "Click at once", "Click after a 1 s hover"],
            navigation.journeys.map((row) => [row.journey, row.runs, row.straightMs, row.afterHoverMs]),
            [
              "From the click to the first frame with the next page's heading, median; a fresh browser context each run.",
              'The hover gives prefetch="intent" its time to fetch the next page\'s code and data.',
            ],
          )
        : (failed("Opening a page from a page with React", results.navigation) ?? ""),
    );
  }

  if (results.mainThread) {
    const mainThread = ok(results.mainThread);
    const title = "Content pages' main thread beside Astro's blog post, ms";
    parts.push(
      mainThread
        ? table(
            `${title} (${mainThread.cpuSlowdown}× CPU slowdown)`,
            ["Page", "Runs", "Style", "Layout", "Script", "All tasks", "Elements", "Frames", "HTML kB", "Ours / Astro"],
            mainThread.pairs.flatMap((pair) =>
              [pair.ours, pair.astro].map((page) => [
                page.url,
                page.runs,
                page.styleMs,
                page.layoutMs,
                page.scriptMs,
                page.taskMs,
                page.elements,
                page.frames,
                kB(page.htmlBytes),
                page === pair.ours ? `${pair.ratio}×` : "",
              ]),
            ),
            [
              "Chromium's Performance.getMetrics once the page settled, median; ours and Astro's loaded in turn, a fresh context each.",
              "Frames: iframes created by then (the players' hosts blocked); HTML kB: uncompressed.",
            ],
          )
        : (failed(title, results.mainThread) ?? ""),
    );
  }

  if (results.search) {
    const sizes = [results.search.real, results.search.large];
    const rows = sizes.flatMap((section) => {
      const figures = ok(section);
      return figures
        ? [
            [
              figures.notes.toLocaleString("en-US"),
              figures.documents.toLocaleString("en-US"),
              `${figures.index.rawKB} / ${figures.index.gzipKB} / ${figures.index.brotliKB}`,
              `${figures.rankingMs.p50} / ${figures.rankingMs.p99}`,
              `${figures.httpMs.p50} / ${figures.httpMs.p99}`,
              `${figures.phone.firstResultsMs} (${figures.phone.allMs.join(", ")})`,
            ],
          ]
        : [];
    });
    const failure = sizes.map((section) => failed("Site search", section)).find(Boolean);
    parts.push(
      rows.length
        ? table(
            "Site search",
            [
              "Notes",
              "Documents",
              "Index kB raw / gzip / br",
              "Ranking ms p50 / p99",
              "/search ms p50 / p99",
              "Phone: key to results, ms",
            ],
            rows,
            [
              "200 queries made from the catalogue (a title's first letters, a title with a typo, an author, three words of a text),",
              "ranked in process and asked of the production server (each new to its cache). Phone: 4x CPU slowdown, 150 ms",
              "round trip, 1.6 Mbps, nothing cached; from the first key typed in the header's field to the first results, the",
              "search module's and index's downloads included: the median, each run in brackets.",
            ],
          )
        : (failure ?? ""),
    );
  }

  if (results.searchCost) {
    const cost = ok(results.searchCost);
    const title = "The costliest searches";
    parts.push(
      cost
        ? table(
            title,
            ["Query", "Ranking ms p50", "/search ms p50"],
            [...cost.ordinary, ...cost.worst].map((query) => [query.query, query.rankingMs, query.httpMs]),
            [
              `${cost.samples} spellings of each, new to the render cache; the costliest worst query over the ordinary one: ${cost.worstOverOrdinary}x.`,
              `While ${cost.fairness.attackers} connections sent "${cost.fairness.query}", another visitor's new searches answered ${cost.fairness.search} of ${cost.fairness.of},`,
              `new filtered lists ${cost.fairness.notes} of ${cost.fairness.of} (p50 ${cost.fairness.p50Ms} ms).`,
              `${cost.uniqueQueries.requests} unique queries on ${cost.uniqueQueries.connections} connections: RSS ${cost.uniqueQueries.rssBeforeMb} → ${cost.uniqueQueries.rssAfterMb} MB; answers ${JSON.stringify(cost.uniqueQueries.statuses)}.`,
            ],
          )
        : (failed(title, results.searchCost) ?? ""),
    );
  }

  if (results.newsletter) {
    const newsletter = ok(results.newsletter);
    parts.push(
      newsletter ? `${describeNewsletter(newsletter)}\n` : (failed("Newsletter delivery", results.newsletter) ?? ""),
    );
  }

  if (results.bounceMailbox) {
    const mailbox = ok(results.bounceMailbox);
    parts.push(
      mailbox ? `${describeBounceMailbox(mailbox)}\n` : (failed("Bounce mailbox", results.bounceMailbox) ?? ""),
    );
  }

  if (results.fediverse) {
    const fediverse = ok(results.fediverse);
    parts.push(fediverse ? `${describeFediverse(fediverse)}\n` : (failed("Fediverse", results.fediverse) ?? ""));
  }

  parts.push(
    table(
      "Budgets",
      ["Check", "Limit", "Actual", "Result"],
      results.budgets.map((budget) => [budget.check, budget.limit, budget.actual, budget.result]),
    ),
  );
  parts.push(`Total time: ${minutes(results.durationSeconds)}. Figures written to bench/results.json.`);
  return parts.join("\n");
}
