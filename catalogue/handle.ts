/** What Mastodon and most fediverse servers accept as a user name. */
export const HANDLE_PATTERN = /^[a-z0-9_]{1,30}$/;

/** The owner's first name in lower case, its accents dropped: "Zoë Ngata" is @zoe. */
export function defaultHandle(ownerName: string): string {
  const first = ownerName.trim().split(/\s+/)[0] ?? "";
  const plain = first
    .normalize("NFD")
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "")
    .slice(0, 30);
  return plain || "site";
}
