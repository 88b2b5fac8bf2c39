import { inputMessages } from "@tp/domain/messages";
import { type FieldErrors, textProblem } from "@tp/domain/validation";
import type { FastifyInstance } from "fastify";
import { AppError, validationError } from "./errors.ts";

/**
 * The deepest a JSON value is walked. A 1 MB body could nest far deeper; anything past this
 * is refused as malformed rather than walked (no route takes more than a few levels).
 */
export const input_depth_max = 32;

/**
 * The edge's rules for every API request, before any route's schema runs (preValidation: after
 * the signed-in scope has checked the session on request, so a signed-out caller gets 401
 * whatever it sent):
 * - a route that takes a body gets a JSON object, or 400 MALFORMED_REQUEST (`null`, an array,
 *   a number or no body at all have no fields to check);
 * - every string anywhere in the body, the query string or the path (values and keys) obeys
 *   the shared rule for all text (`textProblem(…, "any")`: no NUL, no unpaired surrogate), or
 *   422 VALIDATION_FAILED naming each field. Stricter rules for fields people read are in the
 *   fields' own schemas (domain/src/validation.ts), so the web forms show the same messages.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (request.routeOptions.schema?.body && !isPlainObject(request.body)) {
      throw new AppError("MALFORMED_REQUEST", inputMessages.bodyNotObject);
    }
    const errors: FieldErrors = {};
    collectTextProblems(request.body, "", errors);
    collectTextProblems(request.query, "", errors);
    collectTextProblems(request.params, "", errors);
    if (Object.keys(errors).length > 0) throw validationError(errors);
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Walks `value` without recursion (a deep body cannot exhaust the stack). */
function collectTextProblems(value: unknown, root: string, errors: FieldErrors): void {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [
    { value, path: root, depth: 0 },
  ];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next.value === "string") {
      const problem = textProblem(next.value, "any");
      if (problem) addProblem(errors, next.path || "_", problem);
      continue;
    }
    if (typeof next.value !== "object" || next.value === null) continue;
    if (next.depth >= input_depth_max)
      throw new AppError("MALFORMED_REQUEST", inputMessages.nestedTooDeep);
    for (const [key, child] of Object.entries(next.value)) {
      const path = next.path ? `${next.path}.${key}` : key;
      const keyProblem = textProblem(key, "any");
      if (keyProblem) addProblem(errors, path, keyProblem);
      pending.push({ value: child, path, depth: next.depth + 1 });
    }
  }
}

function addProblem(errors: FieldErrors, field: string, message: string): void {
  const list = errors[field] ?? [];
  if (!list.includes(message)) list.push(message);
  errors[field] = list;
}

/**
 * Multipart text fields are read in the handler, after the hook above: they get the rule of
 * text people read (a transaction hash, an ID type), as their JSON counterparts do.
 */
export function refuseUnsafeFormFields(fields: Record<string, string>): void {
  const errors: FieldErrors = {};
  for (const [field, value] of Object.entries(fields)) {
    const problem = textProblem(value, "line");
    if (problem) addProblem(errors, field, problem);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
