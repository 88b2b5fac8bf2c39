import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fundingMessages } from "@tp/domain/funding";
import {
  detectContentType,
  extensionByContentType,
  sniff_bytes_min,
  type UploadContentType,
  upload_bytes_max,
} from "@tp/domain/funding-files";
import { serverMessages } from "@tp/domain/messages";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ConfigError } from "../config.ts";
import type { Queryable } from "../db/database.ts";
import { AppError } from "../http/errors.ts";
import { refuseUnsafeFormFields } from "../http/input-guard.ts";
import { isImage, reencodeImage } from "./image-reencode.ts";

/**
 * Uploaded files (receipts, identity documents) on local disk under DATA_DIR/uploads.
 *
 * - A file is streamed to `uploads/.incoming/<random>` while its size is counted and its
 *   SHA-256 taken; nothing is buffered whole in memory. Busboy stops it past
 *   `upload_bytes_max` (→ 413).
 * - Its type is decided by its first bytes (domain/src/funding-files.ts), never by the name
 *   or the Content-Type the client claims. An image is then decoded and encoded again
 *   (image-reencode.ts), so only the image is kept: no trailing ZIP or HTML, no EXIF.
 * - Kept files get a name the server makes (`<32 hex>.<ext of the detected type>`); the
 *   client's file name is stored as text only, so "../../etc/passwd" or "x.html\r\n" is
 *   harmless. The folder is never served statically: files leave only through
 *   `sendUpload`, as attachments, to the owner or staff.
 */

/** Text fields of an upload form are short; anything longer is refused. */
export const upload_field_bytes_max = 1_000;
export const upload_fields_max = 10;
export const original_name_length_max = 200;

export type UploadPurpose = "receipt" | "identity";

export interface ReceivedFile {
  /** The form field it came in. */
  fieldName: string;
  tempPath: string;
  /** By content; null when it is none of the accepted types. */
  contentType: UploadContentType | null;
  sizeBytes: number;
  sha256: string;
  originalName: string | null;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  file: ReceivedFile | null;
  /** Removes the temporary file (call it whatever happens once the file is kept or refused). */
  discard(): Promise<void>;
}

export interface UploadRow {
  id: number;
  user_id: number;
  purpose: UploadPurpose;
  storage_name: string;
  content_type: UploadContentType;
  size_bytes: number;
  sha256: string;
  original_name: string | null;
  created_at: Date;
}

export function uploadsDirectory(dataDir: string): string {
  return path.join(dataDir, "uploads");
}

/**
 * Creates the folders; refuses a DATA_DIR whose uploads would sit inside the folder the web
 * app is served from (anything there could be fetched by anyone).
 */
export function prepareUploadsDirectory(dataDir: string, webDistDir: string): string {
  const directory = uploadsDirectory(dataDir);
  const relative = path.relative(path.resolve(webDistDir), path.resolve(directory));
  if (!relative.startsWith("..") && !path.isAbsolute(relative)) {
    throw new ConfigError(
      `Invalid configuration:\n  DATA_DIR: uploads (${directory}) would be inside WEB_DIST_DIR, which is served to anyone`,
    );
  }
  mkdirSync(path.join(directory, ".incoming"), { recursive: true });
  return directory;
}

/** Control characters and path separators out, length bounded: the name is display text only. */
export function sanitizeOriginalName(name: string | undefined): string | null {
  if (!name) return null;
  const cleaned = name
    .normalize("NFC")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .replace(/[\\/]/g, "_")
    .trim()
    .slice(0, original_name_length_max);
  return cleaned.length > 0 ? cleaned : null;
}

const multipartRefusals: Record<
  string,
  { code: "BODY_TOO_LARGE" | "MALFORMED_REQUEST"; message: string }
> = {
  FST_REQ_FILE_TOO_LARGE: { code: "BODY_TOO_LARGE", message: fundingMessages.fileTooLarge },
  FST_PARTS_LIMIT: { code: "BODY_TOO_LARGE", message: "The form has too many parts" },
  FST_FILES_LIMIT: { code: "BODY_TOO_LARGE", message: "Send one file only" },
  FST_FIELDS_LIMIT: { code: "BODY_TOO_LARGE", message: "The form has too many fields" },
  FST_PROTO_VIOLATION: { code: "MALFORMED_REQUEST", message: serverMessages.malformedRequest },
  FST_MP_PREMATURE_CLOSE: { code: "MALFORMED_REQUEST", message: serverMessages.malformedRequest },
};

/**
 * Reads a multipart form: the text fields named in `textFields` and at most one file in
 * `fileField`, streamed to a temporary file. Throws AppError for anything malformed or too
 * large, having removed what it wrote.
 */
export async function receiveMultipart(
  request: FastifyRequest,
  directory: string,
  options: { fileField: string; textFields: readonly string[] },
): Promise<ReceivedForm> {
  if (!request.isMultipart()) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", fundingMessages.sendMultipart);
  }
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  const temporaries: string[] = [];
  const discard = async () => {
    await Promise.all(temporaries.map((temporary) => unlink(temporary).catch(() => {})));
  };

  try {
    const parts = request.parts({
      limits: {
        fileSize: upload_bytes_max,
        files: 1,
        fields: upload_fields_max,
        fieldSize: upload_field_bytes_max,
        parts: upload_fields_max + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.valueTruncated || part.fieldnameTruncated) {
          throw new AppError("BODY_TOO_LARGE", "A form field is too long");
        }
        if (options.textFields.includes(part.fieldname) && typeof part.value === "string") {
          fields[part.fieldname] = part.value;
        }
        continue;
      }
      if (part.fieldname !== options.fileField) {
        // Not ours: read and drop it, or the request never ends.
        part.file.resume();
        continue;
      }
      const tempPath = path.join(directory, ".incoming", randomBytes(16).toString("hex"));
      temporaries.push(tempPath);
      const hash = createHash("sha256");
      let head = Buffer.alloc(0);
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          hash.update(chunk);
          if (head.length < sniff_bytes_min) {
            head = Buffer.concat([head, chunk.subarray(0, sniff_bytes_min - head.length)]);
          }
          callback(null, chunk);
        },
      });
      await pipeline(part.file, meter, createWriteStream(tempPath, { mode: 0o600 }));
      if (part.file.truncated) {
        throw new AppError("BODY_TOO_LARGE", fundingMessages.fileTooLarge);
      }
      file = {
        fieldName: part.fieldname,
        tempPath,
        contentType: size > 0 ? detectContentType(head) : null,
        sizeBytes: size,
        sha256: hash.digest("hex"),
        originalName: sanitizeOriginalName(part.filename),
      };
      if (file.contentType && isImage(file.contentType)) {
        // Only the image is kept (image-reencode.ts). One that does not decode is not an
        // image of an accepted type: the form refuses it as it refuses any other type.
        const reencoded = await reencodeImage(tempPath, file.contentType);
        file = reencoded ? { ...file, ...reencoded } : { ...file, contentType: null };
      }
    }
    refuseUnsafeFormFields(fields);
  } catch (error) {
    await discard();
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    const refusal = code ? multipartRefusals[code] : undefined;
    if (refusal) throw new AppError(refusal.code, refusal.message);
    if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", fundingMessages.sendMultipart);
    }
    // Busboy's own parse errors ("Unexpected end of form", "Malformed part header", …).
    if (error instanceof Error && !(error as { statusCode?: number }).statusCode) {
      request.log.info({ err: error }, "malformed multipart body");
      throw new AppError("MALFORMED_REQUEST", serverMessages.malformedRequest);
    }
    throw error;
  }
  return { fields, file, discard };
}

/**
 * Moves a received file to its kept name and records it, in the caller's transaction. If
 * that transaction then fails, the caller calls `removeStoredFile` with the returned name.
 */
export async function keepUpload(
  transaction: Queryable,
  directory: string,
  file: ReceivedFile & { contentType: UploadContentType },
  owner: { userId: number; purpose: UploadPurpose; at: Date },
): Promise<UploadRow> {
  const storageName = `${randomBytes(16).toString("hex")}.${extensionByContentType[file.contentType]}`;
  const inserted = await transaction.query<UploadRow>(
    `INSERT INTO uploads (user_id, purpose, storage_name, content_type, size_bytes, sha256,
                          original_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [
      owner.userId,
      owner.purpose,
      storageName,
      file.contentType,
      file.sizeBytes,
      file.sha256,
      file.originalName,
      owner.at,
    ],
  );
  await rename(file.tempPath, path.join(directory, storageName));
  return inserted.rows[0]!;
}

export async function removeStoredFile(directory: string, storageName: string): Promise<void> {
  await unlink(path.join(directory, storageName)).catch(() => {});
}

export async function findUpload(queryable: Queryable, id: number): Promise<UploadRow | null> {
  const result = await queryable.query<UploadRow>("SELECT * FROM uploads WHERE id = $1", [id]);
  return result.rows[0] ?? null;
}

/**
 * Sends a kept file as an attachment under a name the server makes: its stored type, never
 * sniffed by the browser, never run as a page (sandboxed, no sources allowed), never cached.
 */
export async function sendUpload(
  reply: FastifyReply,
  directory: string,
  upload: UploadRow,
  downloadName: string,
) {
  // A programmer error if the stored name were ever anything else (the column's CHECK too).
  if (!/^[a-z0-9]{32}\.(jpg|png|webp|pdf)$/.test(upload.storage_name)) {
    throw new Error(`upload ${upload.id} has an unsafe storage name`);
  }
  const filePath = path.join(directory, upload.storage_name);
  const found = await stat(filePath).catch(() => null);
  if (!found) {
    reply.log.error({ uploadId: upload.id }, "uploaded file is missing on disk");
    throw new AppError("NOT_FOUND", fundingMessages.fileMissing);
  }
  const safeName = `${downloadName.replace(/[^A-Za-z0-9_-]/g, "")}.${extensionByContentType[upload.content_type]}`;
  return reply
    .header("content-type", upload.content_type)
    .header("content-length", String(found.size))
    .header("content-disposition", `attachment; filename="${safeName}"`)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; sandbox")
    .header("cache-control", "private, no-store")
    .send(createReadStream(filePath));
}
