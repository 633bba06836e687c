import { present } from "./present.ts";

const PLACEHOLDER = /\{([a-z]+)\}/g;

export const placeholdersOf = (template: string) =>
  [...template.matchAll(PLACEHOLDER)].map((match) => present(match[1], "PLACEHOLDER to capture the name"));

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}
