import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { precompressPlugin } from "./build/precompress-plugin.ts";
import { serviceWorkerPlugin } from "./src/pwa/service-worker-plugin.ts";

/** The API server of `npm run dev` (server/); the dev server forwards /api to it. */
const api_origin = "http://localhost:3000";

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    serviceWorkerPlugin({
      source: fileURLToPath(new URL("./src/pwa/service-worker.ts", import.meta.url)),
      publicDir: fileURLToPath(new URL("./public", import.meta.url)),
    }),
    precompressPlugin(),
  ],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // dist/.vite/manifest.json: the module graph the bundle budget check walks (scripts/).
    manifest: true,
    rollupOptions: {
      output: {
        // React changes less often than the app: its own file stays cached across releases.
        // Every other library goes where Rollup puts it: with the pages that use it, so a
        // page downloads no library it does not need (issue 13 item 8).
        manualChunks(id: string) {
          if (!id.includes("node_modules")) return undefined;
          // The chart library loads only with the chart (a dynamic import), not on every page.
          if (/node_modules\/(lightweight-charts|fancy-canvas)\//.test(id)) return "charts";
          // The proof-of-work widget loads only when a form is asked for one (issue 12 item 7).
          if (/node_modules\/altcha\//.test(id)) return "altcha";
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) {
            return "react";
          }
          return undefined;
        },
      },
      onwarn(warning, warn) {
        // zod ships comments Rollup cannot place; harmless, and not ours to fix.
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("node_modules/zod/")) {
          return;
        }
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    // ws: true carries the live stream socket (/api/v1/stream) through the same proxy. The
    // server lets the socket open only from PUBLIC_URL (http://localhost:3000 in development),
    // so the upgrade is sent on with that Origin rather than the dev server's own.
    proxy: {
      "/api": {
        target: api_origin,
        changeOrigin: true,
        ws: true,
        configure: (proxy) => {
          proxy.on("proxyReqWs", (request) => request.setHeader("origin", api_origin));
        },
      },
    },
  },
  preview: { port: 5173 },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["test/**/*.test.{ts,tsx}"],
    setupFiles: ["test/setup.ts"],
    // One jsdom per worker instead of per file halves the suite's time; test/setup.ts resets
    // everything a test can leave behind (storage, toasts, API client, <html> class).
    isolate: false,
    // Alone, after the domain and server projects (findByRole's timeouts are short), and one
    // file at a time: its own sequence.groupOrder, after server-serial's.
    maxWorkers: 1,
    sequence: { groupOrder: 2 },
    testTimeout: 15_000,
  },
});
