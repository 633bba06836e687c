import { formatDuration, type readingTime } from "../../catalogue/stats.ts";

/** A total counts only the known read times (0 means unknown): none at all when no time is known. */
export function ReadTimeFacts({ time, counted }: { time: ReturnType<typeof readingTime>; counted: "Notes" | "Books" }) {
  const sumOver = ` (the sum over the ${time.known} ${counted.toLowerCase()} with a known read time)`;
  return (
    <>
      {time.known > 0 && <dt>Total read time</dt>}
      {time.known > 0 && (
        <dd data-stat="time">
          {formatDuration(time.totalMinutes)}
          {time.unknown > 0 && <span className="meta-line">{sumOver}</span>}
        </dd>
      )}
      {time.unknown > 0 && <dt>{counted} without a read time</dt>}
      {time.unknown > 0 && <dd data-stat="unknown-time">{time.unknown}</dd>}
    </>
  );
}
