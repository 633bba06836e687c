/**
 * Lists a test reads by position. When the list is shorter than the test assumes, the test fails
 * saying so, instead of with a TypeError about `undefined` a few lines further on.
 */
export function entryAt<T>(list: readonly T[], index: number): T {
  const entry = list[index];
  if (entry === undefined) throw new Error(`Expected an entry at index ${index}; the list has ${list.length}`);
  return entry;
}

export const first = <T>(list: readonly T[]): T => entryAt(list, 0);

export const last = <T>(list: readonly T[]): T => entryAt(list, list.length - 1);

/** The entry of a list the test expects to hold exactly one. */
export function only<T>(list: readonly T[]): T {
  if (list.length !== 1) throw new Error(`Expected exactly one entry; the list has ${list.length}`);
  return first(list);
}
