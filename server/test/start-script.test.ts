import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of the repository, typed by its use here
import { webBuildState } from "../../scripts/web-build-freshness.mjs";

const folder = mkdtempSync(path.join(tmpdir(), "tp-build-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function touch(file: string, secondsAgo: number) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "x");
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, when, when);
  // A folder's own time changes when entries come and go (a deleted source counts too);
  // give the new folders the file's time so only the file's age matters here.
  for (
    let directory = path.dirname(file);
    directory.startsWith(folder) && directory !== folder;
    directory = path.dirname(directory)
  ) {
    utimesSync(directory, when, when);
  }
}

describe("npm start's web build check", () => {
  const built = path.join(folder, "dist", "index.html");
  const sources = [path.join(folder, "src"), path.join(folder, "index.html")];

  it("builds when there is no build", () => {
    touch(path.join(folder, "src", "app.tsx"), 100);
    expect(webBuildState(built, sources)).toBe("missing");
  });

  it("keeps a build newer than every source", () => {
    touch(built, 50);
    expect(webBuildState(built, sources)).toBe("fresh");
  });

  it("rebuilds when any source, however deep, changed after the build", () => {
    touch(path.join(folder, "src", "routes", "deep", "page.tsx"), 10);
    expect(webBuildState(built, sources)).toBe("stale");
  });
});
