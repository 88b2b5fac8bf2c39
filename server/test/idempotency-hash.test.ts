import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/idempotency/idempotency.ts";

/**
 * The text keys were hashed from until now (JSON.stringify with a replacer that sorts each
 * object's keys). A key is kept for a day, so a retry that spans a release must hash the
 * same: the two must agree on every value a request can carry.
 */
function sortedKeysStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    return Object.fromEntries(
      Object.keys(inner)
        .sort()
        .map((name) => [name, (inner as Record<string, unknown>)[name]]),
    );
  });
}

describe("the Idempotency-Key fingerprint's canonical JSON", () => {
  it("is JSON.stringify with sorted keys, on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(sortedKeysStringify(value));
      }),
      { numRuns: 3_000 },
    );
  });

  it("sorts nested keys, keeps array order, and treats undefined, dates and odd keys as JSON.stringify does", () => {
    const value = {
      z: [3, { b: 1, a: undefined, c: null }, undefined, "é\u2028\n"],
      a: { "": 0, "10": 1, "9": 2, "€": 3, "😀": 4, "4294967295": 5, "4294967294": 6, "01": 7 },
      m: new Date("2026-11-28T05:46:29.977Z"),
      n: -0,
      f: () => 1,
    };
    expect(canonicalJson(value)).toBe(sortedKeysStringify(value));
    expect(canonicalJson(["POST", "/trade", {}, value, 7])).toBe(
      sortedKeysStringify(["POST", "/trade", {}, value, 7]),
    );
    expect(canonicalJson({ b: 1, a: [1, 2] })).toBe('{"a":[1,2],"b":1}');
  });
});
