import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RecoveryCodes, TotpEnrolment, TwoFactorStatus } from "@tp/domain/two-factor";
import { apiRequest } from "./client.ts";

/** The signed-in user's two-factor settings (GET /two-factor and its changes). */
export const twoFactorQueryKey = ["two-factor"] as const;

export function useTwoFactorStatus(enabled = true) {
  return useQuery({
    queryKey: twoFactorQueryKey,
    queryFn: async () => (await apiRequest<TwoFactorStatus>("/two-factor")).data!,
    enabled,
  });
}

function useTwoFactorChange<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  });
}

/** POST /two-factor/enrol: a new secret and its otpauth:// URI (needs a fresh step-up). */
export function useStartTwoFactorEnrolment() {
  return useTwoFactorChange(
    async () => (await apiRequest<TotpEnrolment>("/two-factor/enrol", { method: "POST" })).data!,
  );
}

/** POST /two-factor/confirm: the first code turns 2FA on; recovery codes come back once. */
export function useConfirmTwoFactor() {
  return useTwoFactorChange(
    async (code: string) =>
      (await apiRequest<RecoveryCodes>("/two-factor/confirm", { method: "POST", body: { code } }))
        .data!.recovery_codes,
  );
}

/** POST /two-factor/disable with a current code or a recovery code. */
export function useDisableTwoFactor() {
  return useTwoFactorChange((code: string) =>
    apiRequest("/two-factor/disable", { method: "POST", body: { code } }),
  );
}

/** POST /two-factor/recovery-codes: ten new codes for a current code. */
export function useRegenerateRecoveryCodes() {
  return useTwoFactorChange(
    async (code: string) =>
      (
        await apiRequest<RecoveryCodes>("/two-factor/recovery-codes", {
          method: "POST",
          body: { code },
        })
      ).data!.recovery_codes,
  );
}
