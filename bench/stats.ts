/** Small statistics and formatting helpers for the benchmark. */
import { present } from "../catalogue/present.ts";

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = present(sorted[middle], "a middle value in a list that is not empty");
  return sorted.length % 2
    ? upper
    : (present(sorted[middle - 1], "a value below the middle of an even list") + upper) / 2;
}

/** kB of 1,000 bytes, one decimal. */
export const kB = (bytes: number) => Math.round(bytes / 100) / 10;

export const round1 = (value: number) => Math.round(value * 10) / 10;

/** The message of an error, first line only. */
export function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().split("\n")[0] || "unknown error";
}
