import { apiFailureSchema } from "@tp/domain/api";

/** Every route declares these failure shapes, so the OpenAPI document shows them. */
export const failureResponses = {
  "4xx": apiFailureSchema,
  "5xx": apiFailureSchema,
} as const;
