import type { ReactNode } from "react";
export const EMBED_SIZES = {
  podcast: { width: 343, height: 102, placeholder: 118 },
  video: { width: 288, height: 160, placeholder: 209 },
} as const;

export type EmbedKind = keyof typeof EMBED_SIZES;

type EmbedProps = {
  kind: EmbedKind;
  src: string;
  title: string;
  load?: boolean;
  onDone?: () => void;
};

export function Embed({ kind, src, title, load = true, onDone }: EmbedProps) {
  const size = EMBED_SIZES[kind];
  const frame = (lazy: boolean) => (
    <iframe
      src={src}
      title={title}
      width={size.width}
      height={size.height}
      loading={lazy ? "lazy" : undefined}
      allow="encrypted-media; picture-in-picture"
      referrerPolicy="strict-origin-when-cross-origin"
      onLoad={onDone}
    />
  );
  return <div className={`embed embed-${kind}`}>{load ? frame(!onDone) : <noscript>{frame(true)}</noscript>}</div>;
}

// A closed <details> keeps its iframe out of layout, so nothing is fetched from the host until it opens.
export function PlayerOnRequest({ label, children }: { label: string; children: ReactNode }) {
  return (
    <details className="player-on-request">
      <summary>{label}</summary>
      {children}
    </details>
  );
}
