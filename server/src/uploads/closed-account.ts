import type { Queryable } from "../db/database.ts";
import { removeStoredFile } from "./upload-store.ts";

/**
 * The end of a closed account's retention time (issue 14 item 7): its receipts' and
 * identity documents' client file names go in the transaction, the files themselves after
 * it commits (`removeErasedFiles`), so a rolled-back erasure loses nothing. The rows stay,
 * with size and checksum only: deposits and verifications point at them.
 */
export async function eraseUploadNamesOf(
  transaction: Queryable,
  userId: number,
): Promise<string[]> {
  const result = await transaction.query<{ storage_name: string }>(
    "UPDATE uploads SET original_name = NULL WHERE user_id = $1 RETURNING storage_name",
    [userId],
  );
  return result.rows.map((row) => row.storage_name);
}

export async function removeErasedFiles(directory: string, storageNames: string[]): Promise<void> {
  for (const storageName of storageNames) await removeStoredFile(directory, storageName);
}
