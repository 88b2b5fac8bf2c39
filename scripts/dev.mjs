// `npm run dev`: the server with reload on change (tsx watch, port 3000) and the Vite dev
// server with hot module replacement (http://localhost:5173, proxying /api to the server).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "server/src/main.ts"], {
    cwd: root,
    stdio: "inherit",
  }),
  spawn("npm", ["run", "dev", "-w", "web"], { cwd: root, stdio: "inherit" }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}
for (const child of children) child.on("exit", (code) => stop(code ?? 0));
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
console.info("Development: open http://localhost:5173 (API on http://localhost:3000)");
