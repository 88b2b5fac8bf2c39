import { createHash } from "node:crypto";
import { rename, unlink, writeFile } from "node:fs/promises";
import type { UploadContentType } from "@tp/domain/funding-files";
import sharp from "sharp";

/**
 * Receipts and identity images are decoded and encoded again before they are kept (issue 12
 * item 9): only the pixels survive. Magic bytes alone let a polyglot through (a PNG that is
 * also a ZIP, or carries HTML after its end); EXIF (GPS position, camera serial) leaks what
 * the trader did not mean to send. Re-encoding drops both: trailing data, metadata chunks
 * and anything else that is not the image. PDFs are not images and are kept as they came;
 * they are only ever served as sandboxed attachments (upload-store.ts `sendUpload`).
 */

/** The largest image decoded (width × height): a decompression bomb stops here, not in RAM. */
export const image_pixels_max = 50_000_000;

export type ImageContentType = Exclude<UploadContentType, "application/pdf">;

export function isImage(contentType: UploadContentType): contentType is ImageContentType {
  return contentType !== "application/pdf";
}

export interface ReencodedImage {
  sizeBytes: number;
  sha256: string;
}

/**
 * Re-encodes the image at `filePath` in place, in the format it was detected as, applying
 * its EXIF orientation first (so the picture reads the same) and keeping no metadata.
 * Returns null when the file does not decode as that image: the caller refuses it.
 */
export async function reencodeImage(
  filePath: string,
  contentType: ImageContentType,
): Promise<ReencodedImage | null> {
  let output: Buffer;
  try {
    const image = sharp(filePath, { failOn: "error", limitInputPixels: image_pixels_max }).rotate();
    const metadata = await image.metadata();
    const expected = { "image/jpeg": "jpeg", "image/png": "png", "image/webp": "webp" }[
      contentType
    ];
    // The first bytes said one format; the decoder must agree, or it is not that image.
    if (metadata.format !== expected) return null;
    const encoder =
      contentType === "image/jpeg"
        ? image.jpeg({ quality: 90 })
        : contentType === "image/png"
          ? image.png()
          : image.webp({ quality: 90 });
    output = await encoder.toBuffer();
  } catch {
    return null;
  }
  // Written beside the original and renamed over it, so a crash leaves one or the other.
  const next = `${filePath}.reencoded`;
  try {
    await writeFile(next, output, { mode: 0o600 });
    await rename(next, filePath);
  } catch (error) {
    await unlink(next).catch(() => {});
    throw error;
  }
  return {
    sizeBytes: output.length,
    sha256: createHash("sha256").update(output).digest("hex"),
  };
}
