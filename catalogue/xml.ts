const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}

export function escapeXml(text: string): string {
  let out = "";
  for (const char of text) {
    if (isXmlChar(char.codePointAt(0) ?? 0)) out += XML_ESCAPES[char] ?? char;
  }
  return out;
}
