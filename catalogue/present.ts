// When the guarantee breaks, the error names what was expected, not a TypeError further on.
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Expected ${what}, found nothing`);
  return value;
}

/** What `read` returns, or undefined when it throws: for a file, link or encoding that may not be there. */
export function orUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** `work` on each item, a few at a time: files are opened and written on libuv's threads, beside the caller's own work. */
export async function eachAtOnce<T>(items: Iterable<T>, work: (item: T) => Promise<void>): Promise<void> {
  const queue = items[Symbol.iterator]();
  const lane = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) await work(next.value);
  };
  await Promise.all(Array.from({ length: 8 }, lane));
}
