import type { StepUpRequest } from "@tp/domain/two-factor";
import { apiRequest } from "./client.ts";

/** POST /step-up: a code when 2FA is on, the password when it is off. */
export function stepUp(body: StepUpRequest) {
  return apiRequest("/step-up", { method: "POST", body });
}
