/**
 * A least-recently-used map bounded in bytes, not entries: what an attacker can make it hold is
 * capped by its size whatever the number of keys. A Map iterates in insertion order, so a hit is
 * re-inserted and the first key is always the least recently used.
 */
export function createByteLru<V>(maxBytes: number, sizeOf: (value: V) => number) {
  const entries = new Map<string, { value: V; bytes: number }>();
  let totalBytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  }

  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    /** A value bigger than the whole bound is not kept. */
    set(key: string, value: V) {
      remove(key);
      const bytes = sizeOf(value);
      if (bytes > maxBytes) return;
      entries.set(key, { value, bytes });
      totalBytes += bytes;
      for (const [oldest, entry] of entries) {
        if (totalBytes <= maxBytes) break;
        entries.delete(oldest);
        totalBytes -= entry.bytes;
      }
    },
    delete: remove,
    size: () => ({ entries: entries.size, bytes: totalBytes }),
  };
}
