/**
 * A value the code guarantees is there (a capture group its pattern always fills, the entry of a
 * list it has just checked the length of) but the type system cannot see it. When the guarantee is
 * broken the error names what was expected, instead of a TypeError about `undefined` further on.
 */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Expected ${what}, found nothing`);
  return value;
}
