import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Plugin, transformWithEsbuild } from "vite";
import type { ServiceWorkerBuild } from "./service-worker.ts";

/** Files of web/public the offline shell needs (the rest of public/ is fetched when asked). */
const public_shell_files = [
  "/favicon.svg",
  "/theme-init.js",
  "/manifest.webmanifest",
  "/icons/icon-192.png",
] as const;

/**
 * Emits /sw.js at build time (only `vite build`; the dev server has no worker): compiles
 * service-worker.ts to one classic script and defines its build — the precache list (the
 * shell, every emitted JS and CSS file, the public files above) and a version that is a
 * hash of all of them and of the worker's own code, so any change makes new caches.
 */
export function serviceWorkerPlugin({ source, publicDir }: { source: string; publicDir: string }) {
  return {
    name: "tp-service-worker",
    apply: "build",
    // After Vite's own plugins, so index.html is already in the bundle.
    enforce: "post",
    async generateBundle(_options, bundle) {
      const version = createHash("sha256");
      const bundled = Object.values(bundle)
        .filter((file) => /\.(js|css)$/.test(file.fileName) || file.fileName === "index.html")
        .sort((a, b) => a.fileName.localeCompare(b.fileName));
      for (const file of bundled) {
        version.update(file.fileName);
        if (file.fileName === "index.html" && file.type === "asset") version.update(file.source);
      }
      for (const publicFile of public_shell_files) {
        version.update(publicFile);
        version.update(readFileSync(path.join(publicDir, publicFile)));
      }
      const code = readFileSync(source, "utf8");
      version.update(code);

      const build: ServiceWorkerBuild = {
        version: version.digest("hex").slice(0, 16),
        precache: [
          ...bundled.map((file) =>
            file.fileName === "index.html" ? "/index.html" : `/${file.fileName}`,
          ),
          ...public_shell_files,
        ],
      };
      const compiled = await transformWithEsbuild(code, source, {
        loader: "ts",
        format: "iife",
        target: "es2020",
        minify: true,
        define: { __SW_BUILD__: JSON.stringify(build) },
      });
      this.emitFile({ type: "asset", fileName: "sw.js", source: compiled.code });
    },
  } satisfies Plugin;
}
