export type IconLinkField = "twosLink" | "youtubeLink" | "patreonLink" | "link" | "podcastLink" | "mediumLink";

export type IconLinkKind = { field: IconLinkField; action: string; icon: string };

export function iconLinkKinds({ noteApp, blog }: { noteApp?: string; blog?: string }): IconLinkKind[] {
  return [
    { field: "twosLink", action: `Read on ${noteApp ?? "the note app"}`, icon: "icon-note-app" },
    { field: "youtubeLink", action: "Watch the video", icon: "icon-video" },
    { field: "patreonLink", action: "Support on Patreon", icon: "icon-patreon" },
    { field: "link", action: "Buy on Amazon", icon: "icon-shop" },
    { field: "podcastLink", action: "Listen to the podcast", icon: "icon-podcast" },
    { field: "mediumLink", action: `Read on ${blog ?? "Medium"}`, icon: "icon-medium" },
  ];
}
