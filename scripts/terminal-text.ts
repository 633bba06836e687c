/**
 * Text from data (an export's titles and authors, a subscriber's address, a message's subject) as
 * the owner's commands print it: without the control characters that would let it move the cursor,
 * recolour or retitle the terminal, or reorder what is shown (escape sequences, C0 but for new line
 * and tab, C1, and the bidirectional controls).
 */
const ESC = "\u001b";
const BEL = "\u0007";
/** CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \, or the line's end) and the other escapes (ESC, intermediates, final). */
const ESCAPE_SEQUENCE = new RegExp(
  `${ESC}(?:\\[[0-?]*[ -/]*[@-~]|\\][^${BEL}${ESC}\\n]*(?:${BEL}|${ESC}\\\\)?|[ -/]*[0-~])`,
  "g",
);
const CONTROL = /[^\P{Cc}\n\t]|[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function terminalText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}
