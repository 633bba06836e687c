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
