export type PollingLoop = {
  start(): void;
  stop(): Promise<void>;
  nudge(): void;
  readonly running: boolean;
};

export type PollingLoopOptions = {
  round: (keepGoing: () => boolean) => Promise<void>;
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
