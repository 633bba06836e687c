/** The page head (app/lib/meta.ts): canonical, Open Graph, Twitter card and JSON-LD on every page. */
import { describe, expect, test } from "vitest";
import { pageMeta } from "../../app/lib/meta.ts";
import { breadcrumbOf, canonicalPath, pageHandle } from "../../app/lib/page-handle.ts";
import { SITE_URL } from "../../app/lib/site-url.ts";

const site = {
  name: "Avery Quinn",
  description: "A developer and writer.",
  social: [
    { name: "Twitter", url: "https://twitter.com/avery_q" },
    { name: "GitHub", url: "https://github.com/avery" },
  ],
};
const matchesAt = (pathname: string) => [{ loaderData: { site }, pathname: "/" }, { pathname }];

type Descriptor = Record<string, unknown>;
const find = (meta: Descriptor[], key: string, value: string) => meta.find((descriptor) => descriptor[key] === value);
const content = (meta: Descriptor[], key: string, value: string) => find(meta, key, value)?.content;
const jsonLd = (meta: Descriptor[]) =>
  meta.filter((descriptor) => "script:ld+json" in descriptor).map((descriptor) => descriptor["script:ld+json"]);

describe("pageMeta", () => {
  test("canonical, og:url and the card image are absolute URLs on SITE_URL (the default outside a build)", () => {
    expect(SITE_URL).toBe("http://localhost:3000");
    const meta = pageMeta(matchesAt("/write/fear/"), { title: "Fear", description: "About fear." }) as Descriptor[];
    expect(find(meta, "rel", "canonical")).toEqual({
      tagName: "link",
      rel: "canonical",
      href: `${SITE_URL}/write/fear`,
    });
    expect(content(meta, "property", "og:url")).toBe(`${SITE_URL}/write/fear`);
    expect(content(meta, "property", "og:image")).toBe(`${SITE_URL}/cards/write/fear.png`);
    expect(content(meta, "name", "twitter:image")).toBe(`${SITE_URL}/cards/write/fear.png`);
    expect(meta[0]).toEqual({ title: "Avery Quinn | Fear" });
  });

  test("every Open Graph and Twitter field is present and a generated card is shared as a large image", () => {
    const meta = pageMeta(matchesAt("/apps"), { title: "Apps", description: "My apps." }) as Descriptor[];
    expect(content(meta, "property", "og:title")).toBe("Apps");
    expect(content(meta, "property", "og:description")).toBe("My apps.");
    expect(content(meta, "property", "og:type")).toBe("website");
    expect(content(meta, "property", "og:site_name")).toBe("Avery Quinn");
    expect(content(meta, "property", "og:image:width")).toBe("1200");
    expect(content(meta, "property", "og:image:height")).toBe("630");
    expect(content(meta, "name", "twitter:card")).toBe("summary_large_image");
    expect(content(meta, "name", "twitter:title")).toBe("Apps");
    expect(content(meta, "name", "twitter:description")).toBe("My apps.");
    expect(content(meta, "name", "twitter:creator")).toBe("@avery_q");
  });

  test("a page's own image (a book cover) is shared as a summary card with its alt text", () => {
    const meta = pageMeta(matchesAt("/notes/x"), {
      title: "X",
      description: "d",
      type: "article",
      published: "2020-01-02",
      image: { path: "/covers/x.png", alt: "Cover of X", width: 258, height: 380 },
    }) as Descriptor[];
    expect(content(meta, "property", "og:image")).toBe(`${SITE_URL}/covers/x.png`);
    expect(content(meta, "property", "og:image:alt")).toBe("Cover of X");
    expect(content(meta, "property", "og:type")).toBe("article");
    expect(content(meta, "property", "article:published_time")).toBe("2020-01-02");
    expect(content(meta, "name", "twitter:card")).toBe("summary");
  });

  test("the home page carries Person JSON-LD and no breadcrumb, and inner pages carry a BreadcrumbList", () => {
    const home = jsonLd(pageMeta(matchesAt("/"), { description: "d", person: true }) as Descriptor[]);
    expect(home).toEqual([expect.objectContaining({ "@type": "Person", name: "Avery Quinn", url: `${SITE_URL}/` })]);
    const inner = jsonLd(pageMeta(matchesAt("/notes/x"), { title: "X", description: "d" }) as Descriptor[]);
    expect(inner).toEqual([expect.objectContaining({ "@type": "BreadcrumbList" })]);
  });

  test("the breadcrumb comes from the page route's handle: its section, its parent, its item, named as the menu names them", () => {
    const root = { loaderData: { site }, pathname: "/" };
    const note = { data: { note: { name: "Deep Work" } } };
    const at = (pathname: string, handle: unknown, loaderData?: unknown) => [root, { pathname, handle, loaderData }];
    expect(
      breadcrumbOf(
        at("/notes/deep-work/", pageHandle("notes", { item: (data: typeof note.data) => data.note.name }), note.data),
      ),
    ).toEqual([
      { name: "Home", path: "/" },
      { name: "Notes", path: "/notes" },
      { name: "Deep Work", path: "/notes/deep-work" },
    ]);
    expect(breadcrumbOf(at("/contact", pageHandle("contact")))).toEqual([
      { name: "Home", path: "/" },
      { name: "Contact", path: "/contact" },
    ]);
    expect(breadcrumbOf(at("/stats", pageHandle("stats")))).toEqual([
      { name: "Home", path: "/" },
      { name: "Notes", path: "/notes" },
      { name: "Reading stats", path: "/stats" },
    ]);
    expect(breadcrumbOf([root])).toEqual([{ name: "Home", path: "/" }]);
    const renamed = { loaderData: { site: { ...site, menu: [{ label: "Books", path: "/notes" }] } }, pathname: "/" };
    expect(breadcrumbOf([renamed, { pathname: "/stats", handle: pageHandle("stats") }])).toEqual([
      { name: "Home", path: "/" },
      { name: "Books", path: "/notes" },
      { name: "Reading stats", path: "/stats" },
    ]);
    expect(canonicalPath("/")).toBe("/");
    expect(canonicalPath("/now//")).toBe("/now");
  });

  test("a page's description defaults to the owner's words for its section", () => {
    const withWords = { ...site, sections: { apps: { description: "Apps, in the owner's words." } } };
    const meta = pageMeta(
      [
        { loaderData: { site: withWords }, pathname: "/" },
        { pathname: "/apps", handle: pageHandle("apps") },
      ],
      {
        title: "Apps",
      },
    ) as Descriptor[];
    expect(content(meta, "name", "description")).toBe("Apps, in the owner's words.");
    expect(content(meta, "property", "og:description")).toBe("Apps, in the owner's words.");
  });
});
