/** A book's place in a series: `number` is 1, 1.5, or a range such as "1-3" for a book that holds several. */
export type Series = { name: string; number?: number | string | undefined };

const NUMBER = String.raw`\d+(?:\.\d+)?(?:\s*-\s*\d+(?:\.\d+)?)?`;
// Goodreads' suffix always ends in "#<number>": "(The Stormlight Archive, #1)", "(Discworld, #8; City Watch, #1)".
const SUFFIX = new RegExp(String.raw`\s*\(([^()]*#\s*${NUMBER})\)\s*$`);
const FIRST_SERIES = new RegExp(String.raw`^\s*(.*?)(?:[\s,]*#\s*(${NUMBER}))?\s*$`);

/** The title without Goodreads' series suffix, and the first series the suffix names. */
export function splitSeries(title: string): { title: string; series: Series | null } {
  const suffix = SUFFIX.exec(title);
  const bare = suffix ? title.slice(0, suffix.index) : "";
  if (!suffix || !bare.trim()) return { title, series: null };
  const [, name = "", number] = FIRST_SERIES.exec(suffix[1]?.split(";")[0] ?? "") ?? [];
  return { title: bare, series: name ? { name, number: number && numberOf(number.replace(/\s/g, "")) } : null };
}

const numberOf = (text: string) => (text.includes("-") ? text : Number(text));

export const withoutSeries = (title: string) => splitSeries(title).title;

export function seriesText({ name, number }: Series): string {
  if (number === undefined) return name;
  return typeof number === "string" ? `${name}, books ${number.replace("-", "–")}` : `${name}, book ${number}`;
}

/** As Goodreads writes it, so an export read back by Goodreads or the import keeps it. */
export const goodreadsTitle = (title: string, series: Series | null) =>
  series?.number === undefined ? title : `${title} (${series.name}, #${series.number})`;
