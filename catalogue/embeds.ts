/**
 * The only hosts whose players the site embeds. The content schema accepts embed URLs from these
 * hosts alone, and the server's content security policy allows frames from them alone.
 */
export const EMBED_ORIGINS = {
  podcast: "https://open.spotify.com",
  video: "https://www.youtube-nocookie.com",
} as const;

export function isEmbedFrom(kind: keyof typeof EMBED_ORIGINS, url: string): boolean {
  return url.startsWith(`${EMBED_ORIGINS[kind]}/`);
}
