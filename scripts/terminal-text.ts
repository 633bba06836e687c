// Data printed to the owner's terminal loses the controls that would move the cursor, retitle it or reorder what is shown.
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

export const printText = (text: string) => console.log(terminalText(text));
