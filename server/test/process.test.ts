import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { newTrader } from "./support/http.ts";

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "tp-process-"));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

function startServer(env: Record<string, string>) {
  // One process (no tsx wrapper), so a signal reaches the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "server/src/main.ts"], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      DATABASE_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "info",
      // The suite registers a trader from the United Kingdom, restricted by default.
      RESTRICTED_COUNTRIES: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(port: number, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("server exited before it was healthy");
    try {
      const reply = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("server did not become healthy in 60 s");
}

describe("the server process", () => {
  it("stops at start with a message naming a bad variable", async () => {
    const server = startServer({ PORT: "eighty", DATA_DIR: dataDir });
    expect(await server.exited).toBe(78);
    expect(server.output()).toMatch(/Invalid configuration:\n\s+PORT: /);
  }, 60_000);

  it("keeps data in DATA_DIR across restarts and shuts down cleanly on SIGTERM and SIGINT", async () => {
    const port = await freePort();
    const env = { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir };
    const trader = newTrader();

    const first = startServer(env);
    await waitForHealth(port, first.child);
    const registered = await fetch(`http://127.0.0.1:${port}/api/v1/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(trader),
    });
    expect(registered.status).toBe(201);
    // Without SMTP_URL the verification mail is written to the log; its links are a field of
    // their own (the output is not a terminal, so the log is JSON), whole and unescaped.
    await expect
      .poll(() => first.output(), { timeout: 10_000 })
      .toContain("/account/verify-email?token=");
    const mailLine = first
      .output()
      .split("\n")
      .find((line) => line.includes("e-mail not sent"));
    const logged = JSON.parse(mailLine ?? "{}") as { links?: string[]; to?: string };
    expect(logged.to).toBe(trader.email.toLowerCase());
    expect(logged.links).toEqual([
      `http://localhost:${port}/account/verify-email?token=${new URL(logged.links?.[0] ?? "http://x").searchParams.get("token")}&email=${encodeURIComponent(trader.email.toLowerCase())}`,
    ]);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("shutting down");

    const second = startServer(env);
    await waitForHealth(port, second.child);
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: trader.email, password: trader.password }),
    });
    expect(login.status).toBe(200);
    second.child.kill("SIGINT");
    expect(await second.exited).toBe(0);
  }, 120_000);
});
