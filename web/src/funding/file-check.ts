import { fundingMessages } from "@tp/domain/funding";
import {
  detectContentType,
  sniff_bytes_min,
  type UploadContentType,
  upload_bytes_max,
} from "@tp/domain/funding-files";

async function headOf(file: Blob): Promise<Uint8Array> {
  const slice = file.slice(0, sniff_bytes_min);
  if (typeof slice.arrayBuffer === "function") return new Uint8Array(await slice.arrayBuffer());
  // Older engines (and jsdom) without Blob.arrayBuffer read through a FileReader.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(slice);
  });
}

/**
 * The server's checks on an upload, run before sending so a wrong file is named at once
 * (SPEC §5, §9): present, at most 10 MB, and of an accepted type by its first bytes, the
 * same detection the server uses. Returns the message, or null when the file will do.
 */
export async function checkUploadFile(
  file: File | null | undefined,
  accepted: readonly UploadContentType[],
  messages: { required: string; type: string },
): Promise<string | null> {
  if (!file || file.size === 0) return messages.required;
  if (file.size > upload_bytes_max) return fundingMessages.fileTooLarge;
  const type = detectContentType(await headOf(file));
  if (type === null || !accepted.includes(type)) return messages.type;
  return null;
}
