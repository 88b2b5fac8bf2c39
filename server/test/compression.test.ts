import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { indexablePagePaths } from "@tp/domain/paths";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compress_bytes_min } from "../src/http/compression.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { buildAppShell, jsonForScriptElement } from "../src/web/app-shell.ts";

/** A built web app in miniature: files above the threshold with the build's .br/.gz beside. */
function writeWebDist(folder: string) {
  const shell = `<!doctype html><html><head><title>shell</title></head><body><div id="root"></div>${"<!-- padding -->".repeat(100)}</body></html>`;
  const script = `console.info(${JSON.stringify("the app ".repeat(400))});`;
  const files: Record<string, string> = {
    "index.html": shell,
    "assets/app-abc123.js": script,
    // A text file the build left without compressed copies: compressed as it is sent.
    "manifest.webmanifest": JSON.stringify({ name: "x".repeat(2000) }),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  for (const name of ["index.html", "assets/app-abc123.js"]) {
    const source = readFileSync(path.join(folder, name));
    writeFileSync(path.join(folder, `${name}.br`), brotliCompressSync(source));
    writeFileSync(path.join(folder, `${name}.gz`), gzipSync(source));
  }
  // A compressed format already: sent as it is whatever the browser accepts.
  mkdirSync(path.join(folder, "icons"), { recursive: true });
  writeFileSync(
    path.join(folder, "icons", "icon.png"),
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4000, 7)]),
  );
}

function varyTokens(header: string | string[] | number | undefined): string[] {
  return String(header ?? "")
    .split(",")
    .map((token) => token.trim().toLowerCase());
}

// Compression is the HTTP edge's; it does not depend on the database, so PGlite is enough.
describe("compression and the crawler files", () => {
  let platform: TestPlatform;
  let webDistDir: string;

  beforeAll(async () => {
    webDistDir = mkdtempSync(path.join(tmpdir(), "tp-compression-"));
    writeWebDist(webDistDir);
    platform = await startTestPlatform("pglite", { webDistDir });
  });
  afterAll(async () => {
    await platform?.close();
    rmSync(webDistDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    platform.app.inject({
      method: "GET",
      url,
      headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
    });

  describe("JSON from the API", () => {
    it("is brotli when the browser accepts it, gzip when only that, the same JSON either way", async () => {
      const plain = await get("/api/v1/site-content");
      expect(plain.statusCode).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThanOrEqual(compress_bytes_min);
      const json = plain.json();

      const br = await get("/api/v1/site-content", "gzip, deflate, br");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(varyTokens(br.headers.vary)).toContain("accept-encoding");
      expect(br.headers["content-type"]).toMatch(/^application\/json/);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(json);

      const gzip = await get("/api/v1/site-content", "gzip");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(varyTokens(gzip.headers.vary)).toContain("accept-encoding");
      expect(JSON.parse(gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(json);

      // The browser's own preference decides; a refused encoding is never used.
      const refusedBr = await get("/api/v1/site-content", "br;q=0, gzip");
      expect(refusedBr.headers["content-encoding"]).toBe("gzip");
    });

    it("goes out plain when the browser asks for identity", async () => {
      const reply = await get("/api/v1/site-content", "identity");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-encoding"]).toBeUndefined();
      expect(reply.json().status).toBe("success");
    });

    it("leaves a reply below the threshold uncompressed", async () => {
      const reply = await get("/api/v1/health", "br, gzip");
      expect(reply.statusCode).toBe(200);
      expect(reply.rawPayload.length).toBeLessThan(compress_bytes_min);
      expect(reply.headers["content-encoding"]).toBeUndefined();
      expect(reply.json().data.status).toBe("ok");
    });

    it("compresses the OpenAPI document (a large JSON reply)", async () => {
      const reply = await get("/api/v1/openapi.json", "br");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-encoding"]).toBe("br");
      expect(JSON.parse(brotliDecompressSync(reply.rawPayload).toString("utf8")).openapi).toMatch(
        /^3\./,
      );
    });
  });

  describe("the web app's files", () => {
    it("serves the build's .br copy of a script with the script's type and cache rule", async () => {
      const original = readFileSync(path.join(webDistDir, "assets/app-abc123.js"));
      const br = await get("/assets/app-abc123.js", "gzip, deflate, br");
      expect(br.statusCode).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(varyTokens(br.headers.vary)).toContain("accept-encoding");
      // The very bytes of the file the build wrote, not compressed again per request.
      expect(
        br.rawPayload.equals(readFileSync(path.join(webDistDir, "assets/app-abc123.js.br"))),
      ).toBe(true);
      expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

      const gzip = await get("/assets/app-abc123.js", "gzip");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(
        gzip.rawPayload.equals(readFileSync(path.join(webDistDir, "assets/app-abc123.js.gz"))),
      ).toBe(true);

      const plain = await get("/assets/app-abc123.js");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.rawPayload.equals(original)).toBe(true);
      expect(varyTokens(plain.headers.vary)).toContain("accept-encoding");
    });

    it("serves the app shell for a deep link compressed, as HTML, with the site content in it", async () => {
      const reply = await get("/user/security", "br");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-encoding"]).toBe("br");
      expect(reply.headers["content-type"]).toMatch(/^text\/html/);
      expect(reply.headers["cache-control"]).toBe("no-cache");
      expect(varyTokens(reply.headers.vary)).toContain("accept-encoding");
      const html = brotliDecompressSync(reply.rawPayload).toString("utf8");
      expect(html).toContain('<div id="root">');
      // The copy GET /site-content answers with, in a data block inside <head>.
      const block = html.match(
        /<script type="application\/json" id="site-content">(.*?)<\/script><\/head>/s,
      );
      expect(block).not.toBeNull();
      const siteContent = (await get("/api/v1/site-content")).json().data;
      expect(JSON.parse(block![1]!)).toEqual(siteContent);

      const gzip = await get("/", "gzip");
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzip.rawPayload).toString("utf8")).toBe(html);
      const plain = await get("/");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(html);
    });

    it("writes operator text into the shell so that it cannot end the data block", () => {
      const hostile = { text: "</script><script>alert(1)</script><!-- \u2028" };
      const html = buildAppShell("<html><head></head><body></body></html>", hostile as never);
      expect(html.match(/<\/script>/g)).toHaveLength(1);
      expect(html).not.toContain("<!--");
      const json = html.match(/id="site-content">(.*?)<\/script>/s)![1]!;
      expect(JSON.parse(json)).toEqual(hostile);
      expect(jsonForScriptElement("a\u2028b")).toBe('"a\\u2028b"');
    });

    it("compresses a text file the build left without copies while sending it", async () => {
      const original = readFileSync(path.join(webDistDir, "manifest.webmanifest"));
      const reply = await get("/manifest.webmanifest", "gzip");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(reply.rawPayload).equals(original)).toBe(true);
    });

    it("sends an image as it is", async () => {
      const original = readFileSync(path.join(webDistDir, "icons", "icon.png"));
      const reply = await get("/icons/icon.png", "br, gzip");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-encoding"]).toBeUndefined();
      expect(reply.headers["content-type"]).toBe("image/png");
      expect(reply.rawPayload.equals(original)).toBe(true);
    });
  });

  describe("robots.txt and sitemap.xml", () => {
    it("robots.txt is plain text that keeps crawlers out of the signed-in area and names the sitemap", async () => {
      const reply = await get("/robots.txt");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-type"]).toBe("text/plain; charset=utf-8");
      const lines = reply.body.split("\n");
      expect(lines).toContain("User-agent: *");
      expect(lines).toContain("Disallow: /user/");
      expect(lines).toContain("Disallow: /api/");
      expect(lines).toContain("Sitemap: http://localhost:3000/sitemap.xml");
      expect(reply.body).not.toContain("<");
    });

    it("sitemap.xml lists every public page under PUBLIC_URL and no signed-in page", async () => {
      const reply = await get("/sitemap.xml");
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-type"]).toBe("application/xml; charset=utf-8");
      expect(reply.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      expect(reply.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const locations = [...reply.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
      expect(locations).toEqual(indexablePagePaths.map((page) => `http://localhost:3000${page}`));
      expect(locations).toContain("http://localhost:3000/about");
      expect(locations.some((location) => /\/(user|admin|api)\//.test(location ?? ""))).toBe(false);
    });
  });
});
