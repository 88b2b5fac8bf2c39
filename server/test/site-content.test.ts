import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { galleryNames } from "@tp/domain/market-info";
import { siteContentSchema } from "@tp/domain/site-content";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKindsUnderTest } from "../src/testing/fresh-database.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { httpClient } from "./support/http.ts";

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const shippedContent = path.join(repositoryRoot, "content");

const png = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 1, 2, 3,
]);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 9, 9]);
const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");
const webp = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([26, 0, 0, 0]),
  Buffer.from("WEBPVP8 "),
  Buffer.alloc(10),
]);

/** Every string value of the content (not its field names, such as "licences"). */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(textsOf);
  return [];
}

describe.each(databaseKindsUnderTest())("site content on %s", (kind) => {
  let shipped: TestPlatform;
  let operator: TestPlatform;
  let contentDir: string;
  let outside: string;

  beforeAll(async () => {
    // The operator's content folder: site.json plus galleries with images and traps.
    contentDir = mkdtempSync(path.join(tmpdir(), "tp-content-"));
    outside = mkdtempSync(path.join(tmpdir(), "tp-outside-"));
    copyFileSync(path.join(shippedContent, "site.json"), path.join(contentDir, "site.json"));
    const confirmation = path.join(contentDir, "galleries", "confirmation");
    mkdirSync(confirmation, { recursive: true });
    writeFileSync(path.join(confirmation, "02-Bank_confirmation.png"), png);
    writeFileSync(path.join(confirmation, "01-account statement.jpg"), jpeg);
    writeFileSync(path.join(confirmation, "03-letter.gif"), gif);
    writeFileSync(path.join(confirmation, "04-scan.webp"), webp);
    // Not images by content, hidden, not an image name, a folder, or a link out of the folder.
    writeFileSync(path.join(confirmation, "fake.png"), "<html>not an image</html>");
    writeFileSync(
      path.join(confirmation, "drawing.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    writeFileSync(path.join(confirmation, "script.png"), '<svg onload="alert(1)"/>');
    writeFileSync(path.join(confirmation, ".hidden.png"), png);
    writeFileSync(path.join(confirmation, "notes.txt"), png);
    writeFileSync(path.join(confirmation, "README.md"), "# notes");
    mkdirSync(path.join(confirmation, "folder.png"));
    writeFileSync(path.join(outside, "secret.png"), png);
    symlinkSync(path.join(outside, "secret.png"), path.join(confirmation, "linked.png"));
    symlinkSync(path.join(contentDir, "site.json"), path.join(confirmation, "site.png"));
    // financial-statement exists but is empty; legal-documents does not exist at all.
    mkdirSync(path.join(contentDir, "galleries", "financial-statement"));

    shipped = await startTestPlatform(kind);
    operator = await startTestPlatform(kind, { env: { CONTENT_DIR: contentDir } });
  });
  afterAll(async () => {
    await shipped?.close();
    await operator?.close();
    rmSync(contentDir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  describe("the shipped content (PRODUCT.md D6)", () => {
    it("claims no licence, certification, registration, founding year, statistic or office", async () => {
      const reply = await httpClient(shipped.baseUrl).get("/api/v1/site-content");
      expect(reply.status).toBe(200);
      const content = siteContentSchema.parse(reply.body.data);
      expect(content.company).toMatchObject({
        registration: null,
        founded_year: null,
        licences: [],
        certifications: [],
      });
      expect(content.about.statistics).toEqual([]);
      expect(content.about.founder_quote).toBeNull();
      expect(content.contact).toMatchObject({
        support_hours: null,
        reply_time: null,
        languages: [],
        offices: [],
      });
      // None of the spec's marketing claims (SPEC §1) slipped into the copy.
      const copy = textsOf(content).join("\n").toLowerCase();
      expect(copy).toContain(content.risk_warning.toLowerCase());
      for (const claim of [
        "licen",
        "regulat",
        "certif",
        "pci",
        "24/7",
        "800,000",
        "64,000",
        "2008",
        "2,400",
        "nationalities",
        "continents",
        "curaçao",
        "cyprus",
        "instant withdrawal",
        "tight spread",
        "overnight",
        "ultra-fast",
      ]) {
        expect(copy, claim).not.toContain(claim);
      }
    });

    it("ships every gallery empty", async () => {
      const http = httpClient(shipped.baseUrl);
      for (const name of galleryNames) {
        const reply = await http.get(`/api/v1/site-content/galleries/${name}`);
        expect(reply.status).toBe(200);
        expect(reply.body.data).toEqual({ name, images: [] });
      }
    });
  });

  describe("galleries from the operator's content folder", () => {
    it("lists the images in file-name order with titles from their names, and nothing else", async () => {
      const reply = await httpClient(operator.baseUrl).get(
        "/api/v1/site-content/galleries/confirmation",
      );
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual({
        name: "confirmation",
        images: [
          {
            url: "/api/v1/site-content/galleries/confirmation/01-account%20statement.jpg",
            title: "01 account statement",
          },
          {
            url: "/api/v1/site-content/galleries/confirmation/02-Bank_confirmation.png",
            title: "02 Bank confirmation",
          },
          { url: "/api/v1/site-content/galleries/confirmation/03-letter.gif", title: "03 letter" },
          { url: "/api/v1/site-content/galleries/confirmation/04-scan.webp", title: "04 scan" },
        ],
      });
    });

    it("answers an empty list for an empty or missing gallery folder", async () => {
      const http = httpClient(operator.baseUrl);
      for (const name of ["financial-statement", "legal-documents"]) {
        const reply = await http.get(`/api/v1/site-content/galleries/${name}`);
        expect(reply.status).toBe(200);
        expect(reply.body.data.images).toEqual([]);
      }
    });

    it("shows a newly added image without a restart", async () => {
      const folder = path.join(contentDir, "galleries", "financial-statement");
      writeFileSync(path.join(folder, "2025-annual.png"), png);
      try {
        const reply = await httpClient(operator.baseUrl).get(
          "/api/v1/site-content/galleries/financial-statement",
        );
        expect(reply.body.data.images).toEqual([
          {
            url: "/api/v1/site-content/galleries/financial-statement/2025-annual.png",
            title: "2025 annual",
          },
        ]);
      } finally {
        rmSync(path.join(folder, "2025-annual.png"));
      }
    });

    it("serves each listed image with the type its content shows", async () => {
      const http = httpClient(operator.baseUrl);
      const listing = await http.get("/api/v1/site-content/galleries/confirmation");
      const expected: Record<string, [string, Buffer]> = {
        "01 account statement": ["image/jpeg", jpeg],
        "02 Bank confirmation": ["image/png", png],
        "03 letter": ["image/gif", gif],
        "04 scan": ["image/webp", webp],
      };
      for (const image of listing.body.data.images as Array<{ url: string; title: string }>) {
        const response = await fetch(`${operator.baseUrl}${image.url}`);
        expect(response.status, image.url).toBe(200);
        const [type, bytes] = expected[image.title]!;
        expect(response.headers.get("content-type")).toBe(type);
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      }
    });

    it.each([
      ["a .png that is not an image", "fake.png"],
      ["an SVG", "drawing.svg"],
      ["SVG script named .png", "script.png"],
      ["a hidden file", ".hidden.png"],
      ["an image under a non-image name", "notes.txt"],
      ["a README", "README.md"],
      ["a folder", "folder.png"],
      ["a link to a file outside the folder", "linked.png"],
      ["a link to site.json", "site.png"],
      ["a missing file", "nothing.png"],
    ])("refuses %s with 404", async (_what, file) => {
      const reply = await httpClient(operator.baseUrl).get(
        `/api/v1/site-content/galleries/confirmation/${encodeURIComponent(file)}`,
      );
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ status: "error", code: "NOT_FOUND" });
    });

    it.each([
      "/api/v1/site-content/galleries/confirmation/..%2F..%2Fsite.json",
      "/api/v1/site-content/galleries/confirmation/%2E%2E%2F%2E%2E%2Fsite.json",
      "/api/v1/site-content/galleries/confirmation/..%2Ffinancial-statement%2F2025.png",
      "/api/v1/site-content/galleries/confirmation/%2Fetc%2Fpasswd",
      "/api/v1/site-content/galleries/confirmation/..%5C..%5Csite.json",
      "/api/v1/site-content/galleries/confirmation/02-Bank_confirmation.png%00.txt",
      "/api/v1/site-content/galleries/confirmation/..",
    ])("refuses the traversal attempt %s", async (attempt) => {
      const response = await fetch(`${operator.baseUrl}${attempt}`);
      // A NUL anywhere in the path is refused at the edge (422 naming the field).
      expect([400, 404, 422]).toContain(response.status);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const text = await response.text();
      expect(text).not.toContain("risk_warning");
      expect(text).not.toContain("root:");
    });

    it.each(["unknown", "..", "..%2Fconfirmation", "Confirmation"])(
      "refuses the gallery name %s",
      async (name) => {
        const response = await fetch(`${operator.baseUrl}/api/v1/site-content/galleries/${name}`);
        expect([400, 404]).toContain(response.status);
        const body = (await response.json()) as { status: string };
        expect(body.status).toBe("error");
      },
    );
  });
});
