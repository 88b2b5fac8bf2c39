/**
 * An array of a composite type written as PostgreSQL's text literal, to pass as one
 * parameter cast to `<type>[]`: the rows arrive typed, each field parsed by its type's own
 * input function. For a batch of thousands of rows it is far cheaper than a JSON array of
 * objects, which the server parses into a jsonb tree and then looks each field up in by
 * name (bench/RESULTS.md, issue 16's thirteenth session).
 *
 * Each row lists its fields in the type's attribute order. A null is written as nothing (the
 * composite's null); a string is quoted when it holds a character that means something in a
 * composite or an array literal, or is empty (which unquoted would read as null).
 */
export type CompositeField = string | number | boolean | null;

export function compositeArrayLiteral(rows: readonly (readonly CompositeField[])[]): string {
  const elements: string[] = new Array(rows.length);
  for (let row = 0; row < rows.length; row++) {
    const fields = rows[row]!;
    let record = "(";
    for (let index = 0; index < fields.length; index++) {
      if (index > 0) record += ",";
      record += fieldText(fields[index]!);
    }
    record += ")";
    // Every element is quoted: a record always holds parentheses and commas.
    elements[row] = `"${escapeQuoted(record)}"`;
  }
  return `{${elements.join(",")}}`;
}

/** Characters that end or delimit an unquoted field or element, and whitespace (trimmed). */
const needs_quotes_pattern = /[(),"\\{}\s]/;

function fieldText(value: CompositeField): string {
  if (value === null) return "";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    // String(-0) is "0": the sign of a negative zero would be lost.
    return Object.is(value, -0) ? "-0" : String(value);
  }
  return value === "" || needs_quotes_pattern.test(value) ? `"${escapeQuoted(value)}"` : value;
}

/** Inside double quotes, a quote and a backslash are each taken literally after a backslash. */
function escapeQuoted(text: string): string {
  return text.replace(/["\\]/g, (character) => `\\${character}`);
}
