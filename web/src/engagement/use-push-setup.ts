import { useEffect } from "react";
import { fetchPushPublicKey, savePushToken } from "../api/push-token.ts";
import { type PushSetupOutcome, setUpPush } from "./push-client.ts";

/** One run per trader per page load (StrictMode mounts twice; a re-render must not re-ask). */
const runs = new Map<number, Promise<PushSetupOutcome>>();

/**
 * Starts Web Push for the signed-in trader once (SPEC §4 "Push"); shows nothing. `again`
 * runs it anew (a click on "Turn on push notifications", where the first, unprompted ask
 * was held back by the browser).
 */
export function runPushSetup(
  userId: number,
  options: { again?: boolean } = {},
): Promise<PushSetupOutcome> {
  let run = options.again ? undefined : runs.get(userId);
  if (run === undefined) {
    run = setUpPush({ userId, loadPublicKey: fetchPushPublicKey, saveToken: savePushToken });
    runs.set(userId, run);
  }
  return run;
}

/** Tests start each case from a fresh page load. */
export function forgetPushSetupRuns(): void {
  runs.clear();
}

export function usePushSetup(userId: number): void {
  useEffect(() => {
    void runPushSetup(userId);
  }, [userId]);
}
