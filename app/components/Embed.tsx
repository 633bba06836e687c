import { Section } from "./Section.tsx";

const EMBED_KINDS = {
  podcast: { width: 343, height: 102, name: "Podcast episode", play: "Play the episode here" },
  video: { width: 288, height: 160, name: "Video", play: "Play the video here" },
} as const;

export type EmbedKind = keyof typeof EMBED_KINDS;

type EmbedProps = { kind: EmbedKind; src: string; name: string; load?: boolean; onDone?: () => void };

const frameAttributes = (kind: EmbedKind, src: string, name: string) =>
  ({
    src,
    title: `${EMBED_KINDS[kind].name}: ${name}`,
    width: EMBED_KINDS[kind].width,
    height: EMBED_KINDS[kind].height,
    allow: "encrypted-media; picture-in-picture",
    referrerPolicy: "strict-origin-when-cross-origin",
  }) as const;

export function Embed({ kind, src, name, load = true, onDone }: EmbedProps) {
  const frame = (lazy: boolean) => (
    <iframe {...frameAttributes(kind, src, name)} loading={lazy ? "lazy" : undefined} onLoad={onDone} />
  );
  return <div className={`embed embed-${kind}`}>{load ? frame(!onDone) : <noscript>{frame(true)}</noscript>}</div>;
}

/**
 * A player made only once the visitor opens it: an iframe, even one never loaded, costs the page a
 * frame. The shell script builds it from the box's data attributes (app/shell/shell.js); without
 * JavaScript the <noscript> one is there, and loads on opening.
 */
export function PlayerSection({ kind, src, name }: { kind: EmbedKind; src: string; name: string }) {
  if (!src) return null;
  const frame = frameAttributes(kind, src, name);
  return (
    <Section id={kind} title={EMBED_KINDS[kind].name}>
      <details className="player-on-request">
        <summary>{EMBED_KINDS[kind].play}</summary>
        <div
          className={`embed embed-${kind}`}
          data-src={frame.src}
          data-title={frame.title}
          data-width={frame.width}
          data-height={frame.height}
          data-allow={frame.allow}
          data-referrer-policy={frame.referrerPolicy}
        >
          <noscript>
            <iframe {...frame} loading="lazy" />
          </noscript>
        </div>
      </details>
    </Section>
  );
}
