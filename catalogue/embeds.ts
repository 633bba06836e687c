// The content schema and the server's Content-Security-Policy allow these hosts alone.
export const EMBED_ORIGINS = {
  podcast: "https://open.spotify.com",
  video: "https://www.youtube-nocookie.com",
} as const;

export function isEmbedFrom(kind: keyof typeof EMBED_ORIGINS, url: string): boolean {
  return url.startsWith(`${EMBED_ORIGINS[kind]}/`);
}

export const PLAYER_PAGE_LABEL = { podcast: "Listen on Spotify", video: "Watch on YouTube" } as const;

export function playerPageOf(kind: keyof typeof EMBED_ORIGINS, embedUrl: string): string {
  const url = new URL(embedUrl);
  if (kind === "podcast") {
    // https://open.spotify.com/embed/episode/ID → https://open.spotify.com/episode/ID
    return `https://open.spotify.com${url.pathname.replace(/^\/embed(-podcast)?\//, "/")}`;
  }
  // https://www.youtube-nocookie.com/embed/ID → https://www.youtube.com/watch?v=ID
  const id = url.pathname.match(/^\/embed\/([\w-]+)/)?.[1];
  return id ? `https://www.youtube.com/watch?v=${id}` : embedUrl;
}
