import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { errorCodes } from "@tp/domain/error-codes";
import { describe, expect, it } from "vitest";
import { httpStatusByCode } from "../src/http/errors.ts";

const sourceDirectory = fileURLToPath(new URL("../src", import.meta.url));

/**
 * The generic CONFLICT is kept for one situation only, in a file another change owns: the
 * practice top-up refused when the balance is already at the level. Anything new that
 * conflicts gets its own code; this list may only shrink.
 */
const conflictThrowersAllowed = ["ledger/practice-routes.ts"];

describe("error codes", () => {
  it("maps every code of the domain's list, and only those, to one HTTP error status", () => {
    expect(Object.keys(httpStatusByCode).sort()).toEqual([...errorCodes].sort());
    for (const code of errorCodes) {
      const status = httpStatusByCode[code];
      expect(Number.isInteger(status), code).toBe(true);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
    }
  });

  it("lists each code once", () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
  });

  it('keeps the generic "CONFLICT" out of server sources (clients branch on precise codes)', () => {
    const throwers = (readdirSync(sourceDirectory, { recursive: true }) as string[])
      .filter((file) => file.endsWith(".ts"))
      .filter((file) =>
        readFileSync(path.join(sourceDirectory, file), "utf8").includes('"CONFLICT"'),
      )
      .map((file) => file.split(path.sep).join("/"))
      .sort();
    expect(throwers).toEqual(conflictThrowersAllowed);
  });
});
