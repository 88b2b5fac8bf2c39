import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { errorCodes } from "@tp/domain/error-codes";
import { describe, expect, it } from "vitest";
import { httpStatusByCode } from "../src/http/errors.ts";

const sourceDirectory = fileURLToPath(new URL("../src", import.meta.url));

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

  it('has no generic "CONFLICT" code, and no server source throws one (clients branch on precise codes)', () => {
    expect(errorCodes as readonly string[]).not.toContain("CONFLICT");
    const throwers = (readdirSync(sourceDirectory, { recursive: true }) as string[])
      .filter((file) => file.endsWith(".ts"))
      .filter((file) =>
        readFileSync(path.join(sourceDirectory, file), "utf8").includes('"CONFLICT"'),
      )
      .map((file) => file.split(path.sep).join("/"))
      .sort();
    expect(throwers).toEqual([]);
  });
});
