import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import { type GalleryImage, type GalleryName, galleryNames } from "@tp/domain/market-info";
import { API_BASE_PATH } from "@tp/domain/paths";

/**
 * The document galleries of the public site (PRODUCT.md D6): the images the operator puts in
 * CONTENT_DIR/galleries/<name>/, nothing else. A missing or empty folder is an empty gallery.
 *
 * Safety: a file is listed and served only if its name is plain (letters, digits, space, dot,
 * dash, underscore; no leading dot, no separator) and ends in .png, .jpg, .jpeg, .gif or
 * .webp, it is a regular file directly in the
 * gallery folder (symbolic links are ignored, so nothing outside the folder is reachable), it
 * is at most `gallery_image_bytes_max`, and its first bytes are those of a PNG, JPEG, GIF or
 * WebP image. The type sent is the one its content shows, never the one its name claims; SVG
 * (which can carry script) is not an image type here.
 */
export const gallery_images_max = 500;
export const gallery_image_bytes_max = 20 * 1024 * 1024;
const file_name_pattern = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,199}$/;
/** The name must also say it is an image; the content then decides which kind. */
const image_extension_pattern = /\.(png|jpe?g|gif|webp)$/i;

export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** The image type its first bytes show, or null. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const starts = (bytes: number[], offset = 0) =>
    head.length >= offset + bytes.length && bytes.every((byte, i) => head[offset + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (
    starts([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) ||
    starts([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])
  ) {
    return "image/gif";
  }
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

export function galleryFolder(contentDir: string, name: GalleryName): string {
  if (!galleryNames.includes(name)) throw new Error(`unknown gallery ${name}`);
  return path.join(contentDir, "galleries", name);
}

/** "2024-q1_statement.png" → "2024 q1 statement". */
export function titleFromFileName(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, "");
  return stem.replace(/[-_.\s]+/g, " ").trim() || fileName;
}

export function galleryImageUrl(name: GalleryName, fileName: string): string {
  return `${API_BASE_PATH}/site-content/galleries/${name}/${encodeURIComponent(fileName)}`;
}

/** The gallery's images in file-name order; [] when the folder is missing or has none. */
export async function listGallery(contentDir: string, name: GalleryName): Promise<GalleryImage[]> {
  const folder = galleryFolder(contentDir, name);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  names.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const images: GalleryImage[] = [];
  for (const fileName of names) {
    if (images.length >= gallery_images_max) break;
    const image = await readGalleryImage(contentDir, name, fileName, { headOnly: true });
    if (image)
      images.push({ url: galleryImageUrl(name, fileName), title: titleFromFileName(fileName) });
  }
  return images;
}

/**
 * One image of a gallery, or null when `fileName` is not a servable image of that gallery
 * (bad name, missing, not a regular file, too large, or not an image by content).
 */
export async function readGalleryImage(
  contentDir: string,
  name: GalleryName,
  fileName: string,
  options: { headOnly?: boolean } = {},
): Promise<{ type: ImageType; bytes: Buffer } | null> {
  if (
    !file_name_pattern.test(fileName) ||
    !image_extension_pattern.test(fileName) ||
    fileName.includes("..")
  ) {
    return null;
  }
  const folder = galleryFolder(contentDir, name);
  const filePath = path.join(folder, fileName);
  // Defence in depth: the name pattern already rules out separators.
  if (path.dirname(filePath) !== folder) return null;
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(filePath);
  } catch {
    return null;
  }
  if (!info.isFile() || info.size > gallery_image_bytes_max || info.size === 0) return null;
  // O_NOFOLLOW: a link swapped in after the lstat is refused, not followed.
  const handle = await open(filePath, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  try {
    const length = options.headOnly ? Math.min(16, info.size) : info.size;
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, 0);
    const type = sniffImageType(bytes.subarray(0, bytesRead));
    if (!type) return null;
    return { type, bytes: bytes.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}
