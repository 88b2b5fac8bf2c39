import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/check-architecture.mjs", import.meta.url));
const trees: string[] = [];

/** A tree of the repository's layout holding just these files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "tp-architecture-"));
  trees.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [script], {
    env: { ...process.env, ARCHITECTURE_CHECK_DIR: root },
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterAll(() => {
  for (const root of trees) rmSync(root, { recursive: true, force: true });
});

// The real tree is checked by `npm run check:architecture` in `npm test`; these make sure
// that check fails when it should, on the kinds of coupling it exists to stop.
describe("the architecture check", () => {
  it("passes a tree whose imports flow one way", () => {
    const root = tree({
      "domain/src/money.ts": "export const cents = 1;\n",
      "server/src/ledger/ledger.ts":
        'import { cents } from "../../../domain/src/money.ts";\nexport const post = cents;\n',
      "server/src/funding/deposits.ts":
        'import { post } from "../ledger/ledger.ts";\nexport const approve = post;\n',
    });
    const result = check(root);
    expect(result.output).toContain("no cycles, no forbidden imports");
    expect(result.status).toBe(0);
  });

  it("fails on a cycle between two server modules, even when no file imports itself back", () => {
    const root = tree({
      "server/src/ledger/ledger.ts":
        'import { audit } from "../audit/audit-log.ts";\nexport const post = audit;\n',
      "server/src/audit/audit-log.ts": "export const audit = 1;\n",
      "server/src/audit/audit-routes.ts":
        'import { post } from "../ledger/ledger.ts";\nexport const routes = post;\n',
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.output).toContain("module cycle: server/audit ↔ server/ledger");
  });

  it("fails on a file cycle, on the domain importing the server, and on one web feature importing another", () => {
    const root = tree({
      "server/src/trading/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "server/src/trading/b.ts": 'import { a } from "./a.ts";\nexport const b = a;\n',
      "domain/src/money.ts":
        'import { a } from "../../server/src/trading/a.ts";\nexport const m = a;\n',
      "web/src/funding/deposit.ts": "export const deposit = 1;\n",
      "web/src/engagement/toast.ts":
        'import { deposit } from "../funding/deposit.ts";\nexport const t = deposit;\n',
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.output).toContain("no-cycles: server/src/trading/");
    expect(result.output).toContain("domain-is-pure: domain/src/money.ts");
    expect(result.output).toContain("web-feature-isolation: web/src/engagement/toast.ts");
  });
});
