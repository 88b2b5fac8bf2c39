/**
 * Uploaded files (SPEC §5, §9): receipts are an image or a PDF, identity documents a JPG,
 * JPEG, PNG or PDF, each at most 10 MB. The type is decided by the file's first bytes, never
 * by its name or the browser's claim, so a script renamed to .png is refused. The web forms
 * can run the same check before sending.
 */

/** SPEC §9 "File limit 10 MB": 10 × 1024 × 1024 bytes. */
export const upload_bytes_max = 10 * 1024 * 1024;

export const uploadContentTypes = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "application/pdf",
] as const;
export type UploadContentType = (typeof uploadContentTypes)[number];

/** What each purpose accepts (by content). */
export const receiptContentTypes: readonly UploadContentType[] = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "application/pdf",
];
export const identityContentTypes: readonly UploadContentType[] = [
  "image/jpeg",
  "image/png",
  "application/pdf",
];

/** The `accept` attribute of each form's file input (a hint; the server decides by content). */
export const receiptAccept = "image/jpeg,image/png,image/webp,application/pdf";
export const identityAccept = ".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf";

export const extensionByContentType: Record<UploadContentType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
};

/** Bytes the detection needs to see. */
export const sniff_bytes_min = 12;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

/** The type a file's first bytes say it is, or null when it is none of the accepted ones. */
export function detectContentType(head: Uint8Array): UploadContentType | null {
  // JPEG: FF D8 FF (SOI followed by a marker).
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // PNG: the 8-byte signature.
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  // WebP: "RIFF" <size> "WEBP".
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    return "image/webp";
  // PDF: "%PDF-".
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  return null;
}
