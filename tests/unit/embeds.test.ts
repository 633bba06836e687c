import { describe, expect, it } from "vitest";
import { playerPageOf } from "../../catalogue/embeds.ts";

describe("playerPageOf", () => {
  it("turns a Spotify embed into the episode's page", () => {
    expect(playerPageOf("podcast", "https://open.spotify.com/embed/episode/1ZP3MucOqGuM6x1UzIsIzm")).toBe(
      "https://open.spotify.com/episode/1ZP3MucOqGuM6x1UzIsIzm",
    );
    expect(playerPageOf("podcast", "https://open.spotify.com/embed-podcast/episode/abc")).toBe(
      "https://open.spotify.com/episode/abc",
    );
  });

  it("turns a YouTube embed into the video's watch page, and keeps an unknown shape as it is", () => {
    expect(playerPageOf("video", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=5")).toBe(
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    );
    expect(playerPageOf("video", "https://www.youtube-nocookie.com/playlist?list=x")).toBe(
      "https://www.youtube-nocookie.com/playlist?list=x",
    );
  });
});
