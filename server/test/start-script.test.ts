import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { missingServerNodeFlags, serverNodeFlags } from "../../scripts/server-node-flags.mjs";
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

describe("the server's Node flags", () => {
  const root = path.join(import.meta.dirname, "..", "..");

  it("are on npm start's command line and the service's, which is where Node reads them", () => {
    const start: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts
      .start;
    const service = readFileSync(path.join(root, "deploy", "tradeplatform.service"), "utf8");
    const execStart = service.split("\n").find((line) => line.startsWith("ExecStart="));
    expect(serverNodeFlags.length).toBeGreaterThan(0);
    for (const command of [start, execStart]) {
      expect(command).toMatch(/scripts\/start\.mjs$/);
      expect(missingServerNodeFlags(command?.split(" ") ?? [])).toEqual([]);
    }
  });

  it("names the ones a process was started without", () => {
    expect(missingServerNodeFlags(["--import", "tsx"])).toEqual(serverNodeFlags);
    expect(missingServerNodeFlags([...serverNodeFlags])).toEqual([]);
  });
});
