import { type ReactNode, useCallback, useState } from "react";
import { ApiError } from "../api/client.ts";
import { ProofOfWorkField } from "./proof-of-work-field.tsx";

/**
 * A form's part in the no-lockout rule (issue 12 item 7): nothing until the server answers
 * CHALLENGE_REQUIRED, then the ALTCHA widget, whose solved payload goes with the next submit
 * as `altcha`. A payload is good for one request, so every answer to a submit that carried one
 * gives a fresh widget.
 */
export function useProofOfWork(): {
  /** The widget, or null while the server has not asked for it. */
  field: ReactNode;
  /** The body to send: `body` plus the solved payload, when there is one. */
  withPayload<T extends object>(body: T): T & { altcha?: string };
  /** After a failed submit: shows the widget when the server asked, renews a spent one. */
  afterFailure(error: unknown): void;
} {
  const [required, setRequired] = useState(false);
  const [payload, setPayload] = useState<string | null>(null);
  // Remounting the widget (a new key) fetches a new challenge.
  const [generation, setGeneration] = useState(0);
  const onSolved = useCallback((solved: string | null) => setPayload(solved), []);

  return {
    field: required ? <ProofOfWorkField key={generation} onSolved={onSolved} /> : null,
    withPayload: (body) => (payload ? { ...body, altcha: payload } : body),
    afterFailure(error) {
      if (error instanceof ApiError && error.code === "CHALLENGE_REQUIRED") setRequired(true);
      if (payload) {
        setPayload(null);
        setGeneration((value) => value + 1);
      }
    },
  };
}
