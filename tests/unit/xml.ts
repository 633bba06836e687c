/** Parsing the XML the site writes (feeds, sitemap, cards) in the tests, with fast-xml-parser. */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";

/** Parses well-formed XML, failing the test with the parser's message otherwise; lists stay lists. */
export function parseXml(xml: string, lists: readonly string[] = []): Record<string, unknown> {
  const valid = XMLValidator.validate(xml);
  expect(valid === true ? "" : JSON.stringify(valid)).toBe("");
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (name) => lists.includes(name),
  });
  return parser.parse(xml) as Record<string, unknown>;
}
