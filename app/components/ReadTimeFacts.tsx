import { formatDuration, type readingTime } from "../../catalogue/stats.ts";

type ReadTimeFactsProps = { time: ReturnType<typeof readingTime>; counted: "Notes" | "Books" };

/** A total read time counts only the known times (0 means unknown): no total at all when none is known. */
export function ReadTimeFacts({ time, counted }: ReadTimeFactsProps) {
  return (
    <>
      {time.known > 0 && (
        <>
          <dt>Total read time</dt>
          <dd data-stat="time">
            {formatDuration(time.totalMinutes)}
            {time.unknown > 0 && (
              <span className="meta-line">
                {" "}
                (the sum over the {time.known} {counted.toLowerCase()} with a known read time)
              </span>
            )}
          </dd>
        </>
      )}
      {time.unknown > 0 && (
        <>
          <dt>{counted} without a read time</dt>
          <dd data-stat="unknown-time">{time.unknown}</dd>
        </>
      )}
    </>
  );
}
