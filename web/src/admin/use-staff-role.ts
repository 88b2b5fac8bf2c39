import { roleAtLeast, type StaffRole } from "@tp/domain/api";
import { useAuth } from "../auth/auth-context.ts";

/**
 * Whether the signed-in member of staff holds at least `least` (support reads, reviewer
 * decides queues, admin configures). The back office hides what the role cannot do; the
 * server refuses it with 403 whatever the page shows.
 */
export function useStaffCan(least: StaffRole): boolean {
  const { user } = useAuth();
  return user !== null && roleAtLeast(user.role, least);
}

/** The signed-in user's id (the four-eyes steps compare it with the first approver). */
export function useSignedInUserId(): number | null {
  return useAuth().user?.id ?? null;
}
