import { z } from "zod";

/** Routes that need a bearer session say so in the OpenAPI document with this. */
export const bearerSecurity = [{ bearer: [] }];

/** `:id` of a stored row: a positive whole number a JavaScript number holds exactly. */
export const idParamsSchema = z.object({
  id: z.coerce
    .number({ error: "The id must be a whole number" })
    .int("The id must be a whole number")
    .positive("The id must be a whole number")
    .max(Number.MAX_SAFE_INTEGER, "The id is too large"),
});

/** The deepest page a listing may be asked for: offsets stay bounded. */
export const page_number_max = 1_000_000;

/** `?page=&limit=` of a paginated listing: page from 1, limit from 1 to `limit_max`. */
export function pageQuerySchema(limit_max: number, limit_default = 10) {
  return z.object({
    page: z.coerce
      .number({ error: "page must be a whole number from 1" })
      .int("page must be a whole number from 1")
      .min(1, "page must be a whole number from 1")
      .max(page_number_max, "page is too large")
      .default(1),
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${limit_max}` })
      .int()
      .min(1)
      .max(limit_max)
      .default(limit_default),
  });
}
