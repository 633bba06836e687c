// When the guarantee breaks, the error names what was expected, not a TypeError further on.
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Expected ${what}, found nothing`);
  return value;
}
