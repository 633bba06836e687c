/** What the owner's commands print from data reaches the terminal without its control characters. */
import { describe, expect, test } from "vitest";
import { terminalText } from "../../scripts/terminal-text.ts";

const ESC = "\u001b";

describe("text printed to the terminal", () => {
  test("colour, cursor and erase sequences are taken out whole, the text around them kept", () => {
    expect(terminalText(`${ESC}[31mRed${ESC}[0m Title`)).toBe("Red Title");
    expect(terminalText(`Author${ESC}[2J${ESC}[H${ESC}[1;1H${ESC}[?25l`)).toBe("Author");
    expect(terminalText(`a${ESC}[38;5;196mb`)).toBe("ab");
  });

  test("a window title or hyperlink sequence goes with its text, however it ends", () => {
    expect(terminalText(`${ESC}]0;pwned\u0007Title`)).toBe("Title");
    expect(terminalText(`${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`)).toBe("click");
    expect(terminalText(`${ESC}]0;never ended\nnext line`)).toBe("\nnext line");
  });

  test("other escapes, C0 and C1 controls go; new lines and tabs stay", () => {
    expect(terminalText(`${ESC}cReset ${ESC}(BCharset ${ESC}7saved`)).toBe("Reset Charset saved");
    expect(terminalText("a\u0000b\u0007c\bd\re\u007ff")).toBe("abcdef");
    expect(terminalText("a\u0085b\u009b31mc\u009dd")).toBe("ab31mcd");
    expect(terminalText("line one\n\tline two")).toBe("line one\n\tline two");
  });

  test("the bidirectional controls that reorder what is shown go", () => {
    const bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c";
    expect(terminalText(`moc.elpmaxe@${bidi}resu`)).toBe("moc.elpmaxe@resu");
  });

  test("letters of every script, emoji and typographic quotes are kept", () => {
    const text = "Ilse Ångström — «Le Jardin d’Hiver», 東京, مرحبا, 👩‍👩‍👧";
    expect(terminalText(text)).toBe(text);
  });
});
