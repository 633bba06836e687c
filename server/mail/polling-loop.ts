/**
 * The loop both mail workers run (server/mail/queue.ts, for the outbox and the newsletter): a round delivers what is
 * due, then the loop sleeps until the next row is due (at most the poll interval), or goes again at
 * once when nudged during a round. Its timer never keeps the process alive; `stop()` waits for the
 * round in flight, whose `keepGoing()` turns false at once.
 */
export type PollingLoop = {
  start(): void;
  stop(): Promise<void>;
  /** New work: run a round now, or right after the one in flight. */
  nudge(): void;
  readonly running: boolean;
};

export type PollingLoopOptions = {
  round: (keepGoing: () => boolean) => Promise<void>;
  /** When the next row is due, in epoch milliseconds, or null when nothing is pending. */
  nextDue: () => Promise<number | null>;
  now: () => number;
  pollIntervalMs: number;
  log: (message: string, error?: unknown) => void;
};

export function createPollingLoop({ round, nextDue, now, pollIntervalMs, log }: PollingLoopOptions): PollingLoop {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  let nudged = false;

  async function idleDelay(): Promise<number> {
    const due = await nextDue();
    if (due === null) return pollIntervalMs;
    return Math.min(Math.max(due - now(), 0), pollIntervalMs);
  }

  function schedule(delayMs: number) {
    if (!started || draining) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  function run() {
    timer = undefined;
    if (!started || draining) return;
    nudged = false;
    draining = (async () => {
      let delay = pollIntervalMs;
      try {
        await round(() => started);
        if (started) delay = nudged ? 0 : await idleDelay();
      } catch (error) {
        log("delivery round failed; retrying later", error);
      }
      return delay;
    })().then((delay) => {
      draining = undefined;
      schedule(nudged ? 0 : delay);
    });
  }

  function nudge() {
    if (!started) return;
    if (draining) nudged = true;
    else schedule(0);
  }

  return {
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      timer = undefined;
      await draining;
    },
    nudge,
    get running() {
      return started;
    },
  };
}
