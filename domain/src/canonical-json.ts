/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by their names' UTF-16 code
 * units, no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (the
 * RFC adopts exactly that number form). A receipt's signature covers these bytes, so anyone
 * re-serialising the receipt in any language gets the same ones. tools/verify-receipt.mjs
 * carries the same few lines so that it needs nothing but Node.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("canonicalJson: numbers must be finite");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      // Default sort compares UTF-16 code units, as the RFC requires.
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
  }
  throw new Error(`canonicalJson: cannot represent a ${typeof value}`);
}
