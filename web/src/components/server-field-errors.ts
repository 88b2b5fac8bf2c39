import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { fieldErrorsOf } from "../api/client.ts";

/**
 * Puts a 422/409 reply's field errors under the form's fields (SPEC §7 "field errors shown
 * under fields"). Returns the messages of fields the form does not show, so the caller can
 * still tell the trader about them.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string[] {
  const unshown: string[] = [];
  const known: ReadonlySet<string> = new Set(fields);
  for (const [field, messages] of Object.entries(fieldErrorsOf(error))) {
    const [first] = messages;
    if (first === undefined) continue;
    if (known.has(field)) {
      setError(field as Path<T>, { type: "server", message: first });
    } else {
      unshown.push(first);
    }
  }
  return unshown;
}
