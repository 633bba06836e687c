/**
 * The owner's sentence templates in content/site.yaml ("My notes on {title} by {author}."): the
 * words are the owner's, the values the item's. A placeholder the page does not know is a content
 * error (catalogue/schema.ts), so a typo never reaches a page as "{titel}".
 */
import { present } from "./present.ts";

const PLACEHOLDER = /\{([a-z]+)\}/g;

/** The placeholders a template uses, in order. */
export const placeholdersOf = (template: string) =>
  [...template.matchAll(PLACEHOLDER)].map((match) => present(match[1], "PLACEHOLDER to capture the name"));

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}
