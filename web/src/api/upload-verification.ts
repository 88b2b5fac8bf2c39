import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { IdType } from "@tp/domain/funding";
import { apiRequest } from "./client.ts";
import { userQueryKey } from "./user.ts";
import { verificationsQueryKey } from "./verifications.ts";

export interface VerificationUpload {
  idType: IdType | null;
  file: File;
  acceptTerms: boolean;
}

/**
 * POST /upload-verification as multipart/form-data: id_type, file and accept_terms sent as
 * 1 or 0 (SPEC §3, §7).
 */
export async function uploadVerification(upload: VerificationUpload): Promise<string | null> {
  const form = new FormData();
  form.append("id_type", upload.idType ?? "");
  form.append("accept_terms", upload.acceptTerms ? "1" : "0");
  form.append("file", upload.file, upload.file.name);
  const reply = await apiRequest("/upload-verification", { method: "POST", body: form });
  return reply.message ?? null;
}

export function useUploadVerificationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadVerification,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: verificationsQueryKey });
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
