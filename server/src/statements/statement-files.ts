import { formatUsdFromCents } from "@tp/domain/money";
import { stringify } from "csv-stringify/sync";
import PDFDocument from "pdfkit";
import { drawableText, pdf_placeholder, pdfFonts } from "./pdf-fonts.ts";
import { type Statement, statementKindLabel } from "./statement.ts";

/**
 * A statement as files: CSV (one row per movement, with the opening and closing balance as
 * their own rows so a spreadsheet's sum can be checked against them) and PDF (a table with
 * the company, the trader and the period). Amounts are dollars with two decimals, written
 * from integer cents with no floating point on the way.
 */

/** "1234.50", "-0.05": cents as a plain decimal a spreadsheet reads as a number. */
export function decimalFromCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets
 * a leading apostrophe (OWASP "CSV injection"); a plain decimal number is left alone.
 */
export function csvText(value: string | null): string {
  if (value === null) return "";
  if (/^-?\d+(\.\d+)?$/.test(value)) return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const statement_csv_columns = [
  "date_utc",
  "type",
  "reference",
  "transaction_id",
  "description",
  "amount",
  "fee",
  "change",
  "balance",
] as const;

export function statementCsv(statement: Statement): string {
  const { period } = statement;
  const rows: string[][] = [
    [
      period.from.toISOString(),
      "Opening balance",
      "",
      "",
      `${statement.account} account, ${period.fromText} to ${period.toText}`,
      "",
      "",
      "",
      decimalFromCents(statement.opening_balance_cents),
    ],
    ...statement.lines.map((line) => [
      line.at.toISOString(),
      statementKindLabel(line.kind),
      csvText(line.reference),
      csvText(line.transaction_id),
      csvText(line.description),
      decimalFromCents(line.amount_cents),
      decimalFromCents(line.fee_cents),
      decimalFromCents(line.change_cents),
      decimalFromCents(line.balance_cents),
    ]),
    [
      // The last instant of the period: the closing balance holds at the end of its last day.
      new Date(period.until.getTime() - 1).toISOString(),
      "Closing balance",
      "",
      "",
      "",
      "",
      decimalFromCents(statement.totals.fees_cents),
      decimalFromCents(statement.closing_balance_cents - statement.opening_balance_cents),
      decimalFromCents(statement.closing_balance_cents),
    ],
  ];
  return stringify(rows, { header: true, columns: [...statement_csv_columns] });
}

/** Rows of any staff export: a header and stringified cells, formula-guarded. */
export function csvOf(columns: readonly string[], rows: Array<Array<string | null>>): string {
  return stringify(
    rows.map((row) => row.map((cell) => csvText(cell))),
    { header: true, columns: [...columns] },
  );
}

export interface StatementHeading {
  companyName: string;
  traderName: string;
  traderEmail: string;
  generatedAt: Date;
}

/** Column layout of the PDF table (A4 landscape, 842 × 595 pt, 40 pt margins). */
const pdfColumns = [
  { title: "Date (UTC)", width: 100, align: "left" },
  { title: "Type", width: 95, align: "left" },
  { title: "Reference", width: 90, align: "left" },
  { title: "Description", width: 215, align: "left" },
  { title: "Amount", width: 70, align: "right" },
  { title: "Fee", width: 55, align: "right" },
  { title: "Change", width: 70, align: "right" },
  { title: "Balance", width: 67, align: "right" },
] as const;

/** The fonts' names in the document (registered from pdf-fonts.ts). */
const body_font = "Body";
const bold_font = "Bold";

/** Where each page's footer sits: below the table's bottom, inside the page. */
const footer_from_bottom_pt = 32;

/**
 * The statement as a PDF (pdfkit, with DejaVu Sans embedded so names beyond Latin-1 print
 * as written; see pdf-fonts.ts for what it cannot draw). The title and subject name the
 * period, so the file says what it is even unopened. Every page's footer has "Page n of N"
 * (pages are buffered until the end, when N is known).
 */
export function statementPdf(statement: Statement, heading: StatementHeading): Promise<Buffer> {
  const { period } = statement;
  const fonts = pdfFonts();
  const accountName = statement.account === "real" ? "Real account" : "Practice account";
  const title = `Statement ${period.fromText} to ${period.toText}`;
  const document = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 40,
    bufferPages: true,
    info: {
      Title: title,
      Subject: `${accountName} statement of ${heading.traderName} for ${period.fromText} to ${period.toText}`,
      Author: heading.companyName,
      CreationDate: heading.generatedAt,
    },
  });
  document.registerFont(body_font, fonts.regular);
  document.registerFont(bold_font, fonts.bold);
  const chunks: Buffer[] = [];
  document.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    document.on("end", () => resolve(Buffer.concat(chunks)));
    document.on("error", reject);
  });

  /** Text as the fonts can draw it; remembers whether any character had to be replaced. */
  let replacedAny = false;
  const drawable = (text: string) => {
    const checked = drawableText(fonts, text);
    if (checked.replaced) replacedAny = true;
    return checked.text;
  };

  const left = 40;
  const bottom = document.page.height - 50;
  document.font(bold_font).fontSize(16).text(drawable(heading.companyName), left, 40);
  document.font(body_font).fontSize(11);
  document.text(`${accountName} statement, ${period.fromText} to ${period.toText} (UTC)`);
  document.text(drawable(`${heading.traderName} <${heading.traderEmail}>`));
  document.text(
    `Generated ${heading.generatedAt.toISOString().replace("T", " ").slice(0, 16)} UTC`,
  );
  document.moveDown(0.5);
  document
    .font(bold_font)
    .text(
      `Opening balance ${formatUsdFromCents(statement.opening_balance_cents)}    Closing balance ${formatUsdFromCents(statement.closing_balance_cents)}    Credits ${formatUsdFromCents(statement.totals.credits_cents)}    Debits ${formatUsdFromCents(statement.totals.debits_cents)}    Fees ${formatUsdFromCents(statement.totals.fees_cents)}`,
    );
  document.moveDown(0.8);

  const drawRow = (rawCells: readonly string[], bold: boolean) => {
    const cells = rawCells.map(drawable);
    document.font(bold ? bold_font : body_font).fontSize(8);
    const heights = cells.map((cell, index) =>
      document.heightOfString(cell, { width: pdfColumns[index]!.width - 6 }),
    );
    const height = Math.max(...heights) + 6;
    if (document.y + height > bottom) {
      document.addPage();
      document.y = 40;
      if (!bold) drawRow(headerCells, true);
      document.font(bold ? bold_font : body_font).fontSize(8);
    }
    const top = document.y;
    let x = left;
    cells.forEach((cell, index) => {
      const column = pdfColumns[index]!;
      document.text(cell, x + 3, top + 3, { width: column.width - 6, align: column.align });
      x += column.width;
    });
    document
      .moveTo(left, top + height)
      .lineTo(x, top + height)
      .lineWidth(bold ? 1 : 0.3)
      .strokeColor(bold ? "#333333" : "#bbbbbb")
      .stroke();
    document.x = left;
    document.y = top + height;
  };
  const headerCells = pdfColumns.map((column) => column.title);
  drawRow(headerCells, true);
  drawRow(
    [
      period.fromText,
      "Opening balance",
      "",
      "",
      "",
      "",
      "",
      formatUsdFromCents(statement.opening_balance_cents),
    ],
    false,
  );
  for (const line of statement.lines) {
    drawRow(
      [
        line.at.toISOString().replace("T", " ").slice(0, 19),
        statementKindLabel(line.kind),
        line.transaction_id ? `${line.reference}\n${line.transaction_id}` : line.reference,
        line.description,
        formatUsdFromCents(line.amount_cents),
        line.fee_cents > 0 ? formatUsdFromCents(line.fee_cents) : "",
        formatUsdFromCents(line.change_cents),
        formatUsdFromCents(line.balance_cents),
      ],
      false,
    );
  }
  drawRow(
    [
      period.toText,
      "Closing balance",
      "",
      "",
      "",
      formatUsdFromCents(statement.totals.fees_cents),
      formatUsdFromCents(statement.closing_balance_cents - statement.opening_balance_cents),
      formatUsdFromCents(statement.closing_balance_cents),
    ],
    true,
  );
  if (statement.lines.length === 0) {
    document.moveDown(0.5).font(body_font).fontSize(9).text("No movements in this period.");
  }

  // Footers last, when the number of pages is known.
  const pages = document.bufferedPageRange();
  const width = document.page.width - 2 * left;
  for (let index = 0; index < pages.count; index++) {
    document.switchToPage(pages.start + index);
    // Writing below the bottom margin would otherwise start a new page.
    document.page.margins.bottom = 0;
    const y = document.page.height - footer_from_bottom_pt;
    document.font(body_font).fontSize(8).fillColor("#555555");
    document.text(`${title} · ${accountName}`, left, y, { width, lineBreak: false });
    document.text(`Page ${index + 1} of ${pages.count}`, left, y, {
      width,
      align: "right",
      lineBreak: false,
    });
    if (replacedAny) {
      document.text(pdf_placeholder_note, left, y + 10, { width, lineBreak: false });
    }
  }
  document.end();
  return finished;
}

/** The footer's note when a character had to be replaced (never silently garbled text). */
export const pdf_placeholder_note = `${pdf_placeholder} marks a character this PDF's font cannot draw; the CSV statement and the data export have the exact text.`;
