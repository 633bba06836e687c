/** The budgets of DESIGN §8 and the brief of the benchmark, checked against the figures. */
import { type Budget, ok, type Results } from "./results.ts";
import { kB } from "./stats.ts";

export const LIMITS = {
  lighthouseScore: 100,
  cls: 0,
  ownJsGzipBytes: 15_000,
  totalJsGzipBytes: 120_000,
  nginxRatio: 0.5,
  keystrokeRealMs: 16,
  keystrokeLargeMs: 100,
} as const;

const na = (check: string, limit: string, why: string): Budget => ({ check, limit, actual: why, result: "n/a" });
const verdict = (passed: boolean): Budget["result"] => (passed ? "pass" : "FAIL");

function listed(items: string[], most = 4): string {
  return items.length > most ? `${items.slice(0, most).join(", ")} +${items.length - most} more` : items.join(", ");
}

export function checkBudgets(results: Omit<Results, "budgets" | "durationSeconds">): Budget[] {
  const budgets: Budget[] = [];
  const lighthouse = ok(results.lighthouse);
  {
    const check = "Lighthouse: 100 in all four categories, every page";
    if (!lighthouse) budgets.push(na(check, "100", "no figures"));
    else {
      const below: string[] = [];
      for (const page of lighthouse.pages) {
        for (const [label, score] of [
          ["perf", page.performance],
          ["a11y", page.accessibility],
          ["bp", page.bestPractices],
          ["seo", page.seo],
        ] as const) {
          if (score === null) below.push(`${page.path} ${label} –`);
          else if (score < LIMITS.lighthouseScore) below.push(`${page.path} ${label} ${score}`);
        }
      }
      budgets.push({
        check,
        limit: "100",
        actual: below.length ? listed(below) : "all 100",
        result: verdict(!below.length),
      });
    }
  }
  {
    const check = "CLS 0 on every page (median)";
    if (!lighthouse) budgets.push(na(check, "0", "no figures"));
    else {
      const shifting = lighthouse.pages.filter((page) => page.cls === null || page.cls > LIMITS.cls);
      budgets.push({
        check,
        limit: "0",
        actual: shifting.length ? listed(shifting.map((page) => `${page.path} ${page.cls ?? "–"}`)) : "0 everywhere",
        result: verdict(!shifting.length),
      });
    }
  }
  const bytes = ok(results.bytes);
  for (const [check, limit, value] of [
    ["Each page's own JS (gzip)", LIMITS.ownJsGzipBytes, (page: { ownJs: { gzip: number } }) => page.ownJs.gzip],
    ["Total first-load JS (gzip)", LIMITS.totalJsGzipBytes, (page: { totalJs: { gzip: number } }) => page.totalJs.gzip],
  ] as const) {
    const limitText = `≤ ${kB(limit)} kB`;
    if (!bytes?.pages.length) {
      budgets.push(na(check, limitText, "no figures"));
      continue;
    }
    const largest = [...bytes.pages].sort((a, b) => value(b) - value(a))[0];
    const over = bytes.pages.filter((page) => value(page) > limit);
    budgets.push({
      check,
      limit: limitText,
      actual: `max ${kB(value(largest))} kB (${largest.path})${over.length > 1 ? `, ${over.length} pages over` : ""}`,
      result: verdict(over.length === 0),
    });
  }
  {
    const check = "Prerendered pages: req/s vs nginx";
    const limit = `≥ ${LIMITS.nginxRatio} × nginx`;
    const load = ok(results.pageLoad);
    if (!load) budgets.push(na(check, limit, "no figures"));
    else if (load.ratio === null) budgets.push(na(check, limit, load.nginx.status === "ok" ? "–" : load.nginx.reason));
    else
      budgets.push({ check, limit, actual: `${load.ratio} × nginx`, result: verdict(load.ratio >= LIMITS.nginxRatio) });
  }
  for (const [section, limit] of [
    [results.keystrokes.real, LIMITS.keystrokeRealMs],
    [results.keystrokes.large, LIMITS.keystrokeLargeMs],
  ] as const) {
    const figures = ok(section);
    const notes = figures
      ? figures.catalogueNotes.toLocaleString("en-US")
      : section === results.keystrokes.real
        ? "~270"
        : "10,000";
    const check = `Keystroke to screen at ${notes} notes (median)`;
    if (!figures) budgets.push(na(check, `< ${limit} ms`, "no figures"));
    else
      budgets.push({
        check,
        limit: `< ${limit} ms`,
        actual: `${figures.medianMs} ms`,
        result: verdict(figures.medianMs < limit),
      });
  }
  {
    const check = "Fast typing keeps every keystroke";
    const checks = [results.keystrokes.real, results.keystrokes.large].flatMap((section) => {
      const figures = ok(section);
      return figures ? [{ notes: figures.catalogueNotes, ...figures.fastTyping }] : [];
    });
    if (!checks.length) budgets.push(na(check, "no key lost", "no figures"));
    else {
      const lost = checks.filter((item) => item.lost > 0);
      budgets.push({
        check,
        limit: "no key lost",
        actual: lost.length
          ? lost.map((item) => `${item.notes} notes: ${item.lost}/${item.tries} tries, "${item.example}"`).join("; ")
          : "none lost",
        result: verdict(lost.length === 0),
      });
    }
  }
  return budgets;
}
