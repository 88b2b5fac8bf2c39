import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed formats already. */
export const precompressible_file_pattern = /\.(html|js|mjs|css|json|webmanifest|svg|txt|xml|map)$/;
/** Below this a compressed copy saves less than its headers cost. */
export const precompress_bytes_min = 1024;

/** The brotli and gzip bytes of `source` at the highest levels (build time, not per request). */
export async function compressBoth(source: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(source, {
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

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Writes `file.br` and `file.gz` beside every text file of the finished build (dist/, the
 * copied public files and /sw.js included), so the server sends the smallest encoding the
 * browser accepts without compressing anything per request (@fastify/static preCompressed).
 * A compressed copy not smaller than the original is not written.
 */
export function precompressPlugin(): Plugin {
  let outDir = "";
  return {
    name: "tp-precompress",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = filesUnder(outDir).filter(
        (file) =>
          precompressible_file_pattern.test(file) &&
          !file.includes(`${path.sep}.vite${path.sep}`) &&
          statSync(file).size >= precompress_bytes_min,
      );
      await Promise.all(
        files.map(async (file) => {
          const source = readFileSync(file);
          const { br, gz } = await compressBoth(source);
          if (br.length < source.length) writeFileSync(`${file}.br`, br);
          if (gz.length < source.length) writeFileSync(`${file}.gz`, gz);
        }),
      );
    },
  };
}
