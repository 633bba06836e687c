import { Section } from "./Section.tsx";

const EMBED_KINDS = {
  podcast: { width: 343, height: 102, name: "Podcast episode", play: "Play the episode here" },
  video: { width: 288, height: 160, name: "Video", play: "Play the video here" },
} as const;

export type EmbedKind = keyof typeof EMBED_KINDS;

type EmbedProps = { kind: EmbedKind; src: string; name: string; load?: boolean; onDone?: () => void };

export function Embed({ kind, src, name, load = true, onDone }: EmbedProps) {
  const { width, height } = EMBED_KINDS[kind];
  const frame = (lazy: boolean) => (
    <iframe
      src={src}
      title={`${EMBED_KINDS[kind].name}: ${name}`}
      width={width}
      height={height}
      loading={lazy ? "lazy" : undefined}
      allow="encrypted-media; picture-in-picture"
      referrerPolicy="strict-origin-when-cross-origin"
      onLoad={onDone}
    />
  );
  return <div className={`embed embed-${kind}`}>{load ? frame(!onDone) : <noscript>{frame(true)}</noscript>}</div>;
}

// A closed <details> keeps its iframe out of layout, so nothing is fetched from the host until it opens.
export function PlayerSection({ kind, src, name }: { kind: EmbedKind; src: string; name: string }) {
  if (!src) return null;
  return (
    <Section id={kind} title={EMBED_KINDS[kind].name}>
      <details className="player-on-request">
        <summary>{EMBED_KINDS[kind].play}</summary>
        <Embed kind={kind} src={src} name={name} />
      </details>
    </Section>
  );
}
