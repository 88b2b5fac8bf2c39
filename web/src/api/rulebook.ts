import { useQuery } from "@tanstack/react-query";
import { type Rulebook, rulebookSchema } from "@tp/domain/rulebook";
import { apiRequest } from "./client.ts";

/** GET /rules: the rulebook in force and every earlier version (issue 15 item 4). */
export async function fetchRulebook(signal?: AbortSignal): Promise<Rulebook> {
  const reply = await apiRequest<unknown>("/rules", { signal });
  const parsed = rulebookSchema.safeParse(reply.data);
  if (!parsed.success) throw new Error("The rulebook reply does not match its schema");
  return parsed.data;
}

export function useRulebook() {
  return useQuery({
    queryKey: ["rulebook"],
    queryFn: ({ signal }) => fetchRulebook(signal),
    // Changes only with a release.
    staleTime: 60 * 60_000,
  });
}
