import { inflateSync } from "node:zlib";

/**
 * The text of each page of a PDF that pdfkit wrote, in drawing order: enough of a parser to
 * read our own statements back (objects, Flate streams, Type0 fonts' ToUnicode maps, Tf,
 * Tj and TJ), not a general PDF reader. Each Tj/TJ becomes one line of the page's text,
 * so a cell or a footer can be looked for whole.
 */
export function pdfPageTexts(pdf: Buffer): string[] {
  const raw = pdf.toString("latin1");
  const objects = new Map<number, { dictionary: string; stream: string | null }>();
  const objectPattern = /(\d+) 0 obj\s*([\s\S]*?)endobj/g;
  for (const match of raw.matchAll(objectPattern)) {
    const body = match[2]!;
    const streamAt = body.indexOf("stream\n");
    if (streamAt === -1) {
      objects.set(Number(match[1]), { dictionary: body, stream: null });
      continue;
    }
    const dictionary = body.slice(0, streamAt);
    const bytes = Buffer.from(
      body.slice(streamAt + "stream\n".length, body.lastIndexOf("\nendstream")),
      "latin1",
    );
    const stream = (
      /\/Filter\s*\/FlateDecode/.test(dictionary) ? inflateSync(bytes) : bytes
    ).toString("latin1");
    objects.set(Number(match[1]), { dictionary, stream });
  }
  const reference = (dictionary: string, key: string) => {
    const found = new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(dictionary);
    return found ? Number(found[1]) : null;
  };

  /** Font resource name (F1) to its code → text map; null for a simple (1-byte) font. */
  const fonts = new Map<string, Map<number, string> | null>();
  for (const { dictionary } of objects.values()) {
    const fontDictionary = /\/Font\s*<<([\s\S]*?)>>/.exec(dictionary);
    if (!fontDictionary) continue;
    for (const entry of fontDictionary[1]!.matchAll(/\/(\S+?)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(entry[2]))!;
      const cmapId = reference(font.dictionary, "ToUnicode");
      fonts.set(entry[1]!, cmapId === null ? null : toUnicodeMap(objects.get(cmapId)!.stream!));
    }
  }

  const pagesRoot = [...objects.values()].find((object) =>
    /\/Type\s*\/Pages\b/.test(object.dictionary),
  )!;
  const kids = /\/Kids\s*\[([^\]]*)\]/.exec(pagesRoot.dictionary)![1]!;
  return [...kids.matchAll(/(\d+) 0 R/g)].map((kid) => {
    const page = objects.get(Number(kid[1]))!;
    const content = objects.get(reference(page.dictionary, "Contents")!)!.stream!;
    return textOfContent(content, fonts);
  });
}

function toUnicodeMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hexText = (hex: string) => {
    const units = hex
      .trim()
      .split(/\s+/)
      .map((unit) => Number.parseInt(unit, 16));
    return String.fromCharCode(...units);
  };
  for (const range of cmap.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*\[([^\]]*)\]/gi)) {
    let code = Number.parseInt(range[1]!, 16);
    for (const target of range[3]!.matchAll(/<([0-9a-f ]+)>/gi)) {
      map.set(code, hexText(target[1]!));
      code += 1;
    }
  }
  return map;
}

function textOfContent(content: string, fonts: Map<string, Map<number, string> | null>): string {
  const lines: string[] = [];
  let font: Map<number, string> | null = null;
  const decode = (hex: string) => {
    const width = font ? 4 : 2;
    let text = "";
    for (let index = 0; index + width <= hex.length; index += width) {
      const code = Number.parseInt(hex.slice(index, index + width), 16);
      text += font ? (font.get(code) ?? "") : String.fromCharCode(code);
    }
    return text;
  };
  const operators = /\/(\S+)\s+[\d.]+\s+Tf|\[((?:[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g;
  for (const match of content.matchAll(operators)) {
    if (match[1] !== undefined) {
      font = fonts.get(match[1]) ?? null;
    } else if (match[2] !== undefined) {
      lines.push(
        [...match[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => decode(hex[1]!)).join(""),
      );
    } else if (match[3] !== undefined) {
      lines.push(decode(match[3]));
    }
  }
  return lines.join("\n");
}
