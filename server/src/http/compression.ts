import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Replies smaller than this go out as they are: compressing them saves less than it costs. */
export const compress_bytes_min = 1024;

/**
 * Text worth compressing: HTML, CSS, JavaScript, JSON (the API, the OpenAPI document, the
 * web manifest), SVG and XML (the sitemap). Not the event stream (it must flush every
 * message), not images, PDFs or other binary files (compressed formats already, and an
 * upload is sent exactly as stored).
 */
export const compressible_content_type =
  /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:[\w.+-]+\+)?(?:json|javascript|xml)|image\/svg\+xml)(?:;|$)/i;

/**
 * Brotli or gzip, as the request's Accept-Encoding prefers, for every text reply of
 * `compress_bytes_min` or more (issue 13 item 8), with `Vary: accept-encoding`. The web app's
 * files come precompressed from the build (serve-web-app.ts); a reply that already has a
 * Content-Encoding is passed through. Request bodies are not decompressed: the API takes
 * plain JSON only, and an inflated body must not slip past the body limit.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    threshold: compress_bytes_min,
    encodings: ["br", "gzip"],
    customTypes: compressible_content_type,
    globalDecompression: false,
  });
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli and gzip of `source` at their highest levels: for bytes made once and sent often. */
export async function compressBoth(source: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([
    brotliAsync(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzipAsync(source, { level: 9 }),
  ]);
  return { br, gz };
}
