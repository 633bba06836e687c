/**
 * The build's phase timings, for the benchmark (bench/build-phases.ts): when BUILD_TIMINGS is set,
 * each phase prints a line on stderr when it starts and when it ends, and work done inside
 * prerendering (drawing a card) prints how long it took. Without BUILD_TIMINGS nothing is printed.
 * Build and benchmark only.
 */

import type { Plugin } from "vite";

/** Every timing line starts with this; the rest is JSON, a `TimingEvent`. */
export const TIMING_LINE_PREFIX = "[build-timing] ";

export type TimingEvent =
  | { phase: string; event: "start" | "end"; at: number }
  /** Work done inside another phase, `ms` long (summed by the reader). */
  | { phase: string; event: "spent"; ms: number };

function print(event: TimingEvent): void {
  if (process.env.BUILD_TIMINGS) process.stderr.write(`${TIMING_LINE_PREFIX}${JSON.stringify(event)}\n`);
}

export const markPhase = (phase: string, event: "start" | "end") => print({ phase, event, at: Date.now() });

/** Runs `work` between a start and an end line of `phase`. */
export async function timePhase<T>(phase: string, work: () => T | Promise<T>): Promise<T> {
  markPhase(phase, "start");
  try {
    return await work();
  } finally {
    markPhase(phase, "end");
  }
}

/** Runs `work` and reports its duration as part of `phase`. */
export async function timeSpent<T>(phase: string, work: () => T | Promise<T>): Promise<T> {
  if (!process.env.BUILD_TIMINGS) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    print({ phase, event: "spent", ms: performance.now() - started });
  }
}

/** `timeSpent` for work that does not wait. */
export function timeSpentNow<T>(phase: string, work: () => T): T {
  if (!process.env.BUILD_TIMINGS) return work();
  const started = performance.now();
  try {
    return work();
  } finally {
    print({ phase, event: "spent", ms: performance.now() - started });
  }
}

/** Reads the timing lines out of a build's output. */
export function parseTimingLines(output: string): TimingEvent[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith(TIMING_LINE_PREFIX))
    .map((line) => JSON.parse(line.slice(TIMING_LINE_PREFIX.length)) as TimingEvent);
}

/**
 * Marks each bundle (client, ssr) from its start to its files written. React Router prerenders in
 * its own writeBundle of the ssr bundle, which runs after this plugin's (listed first): the
 * prerendering starts at the last "bundle:ssr" end.
 */
export function buildTimingVitePlugin(): Plugin {
  return {
    name: "build-timing",
    buildStart() {
      markPhase(`bundle:${this.environment.name}`, "start");
    },
    writeBundle() {
      markPhase(`bundle:${this.environment.name}`, "end");
    },
  };
}
