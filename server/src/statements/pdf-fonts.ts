import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";

/**
 * The statement PDF's fonts: DejaVu Sans and DejaVu Sans Bold from the `dejavu-fonts-ttf`
 * package (the Bitstream Vera licence with DejaVu's changes in the public domain: free to
 * embed and redistribute), embedded as subsets by pdfkit. Unlike the built-in Helvetica,
 * whose WinAnsi encoding stops at Latin-1, they draw Latin Extended ("Łukasiewicz"),
 * Greek, Cyrillic, Arabic, Hebrew and more. They have no Chinese, Japanese or Korean
 * glyphs: a character neither font draws is shown as `pdf_placeholder` and the footer says
 * so, rather than printing a glyph that is not the character.
 */

/** U+FFFD REPLACEMENT CHARACTER, the Unicode sign for "a character that could not be shown". */
export const pdf_placeholder = "\uFFFD";

export interface PdfFonts {
  regular: Buffer;
  bold: Buffer;
  /** True when both faces have a glyph for the code point. */
  draws(codePoint: number): boolean;
}

let loaded: PdfFonts | null = null;

/** Read once per process (about 1.4 MB), on the first PDF. */
export function pdfFonts(): PdfFonts {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const file = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
  const regular = file("DejaVuSans.ttf");
  const bold = file("DejaVuSans-Bold.ttf");
  const faces = [regular, bold].map((buffer) => fontkit.create(buffer) as fontkit.Font);
  const drawable = new Map<number, boolean>();
  loaded = {
    regular,
    bold,
    draws(codePoint) {
      let known = drawable.get(codePoint);
      if (known === undefined) {
        known = faces.every((face) => face.hasGlyphForCodePoint(codePoint));
        drawable.set(codePoint, known);
      }
      return known;
    },
  };
  return loaded;
}

/**
 * `text` with every character the fonts cannot draw replaced by the placeholder; line
 * breaks are kept (pdfkit breaks lines on them). `replaced` tells whether any was.
 */
export function drawableText(fonts: PdfFonts, text: string): { text: string; replaced: boolean } {
  let replaced = false;
  let out = "";
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    if (character === "\n" || fonts.draws(codePoint)) {
      out += character;
    } else if (character === "\t") {
      out += " ";
    } else {
      out += pdf_placeholder;
      replaced = true;
    }
  }
  return { text: out, replaced };
}
