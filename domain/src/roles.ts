/**
 * Account roles and the staff ladder, without zod: the app's first screen needs them, and
 * the schemas' library is kept off its first load (issue 13 item 8). api.ts builds its
 * schema from `roles` and re-exports the rest.
 */
export const roles = ["trader", "support", "reviewer", "admin"] as const;
export type Role = (typeof roles)[number];

/** The staff roles, least to most: support reads, reviewer decides queues, admin configures. */
export const staffRoles = ["support", "reviewer", "admin"] as const;
export type StaffRole = (typeof staffRoles)[number];

/** Whether a role is staff (the back office) rather than a trader. */
export function isStaffRole(role: Role): role is StaffRole {
  return role !== "trader";
}

/** Whether `role` holds at least `least` (admin ⊇ reviewer ⊇ support; a trader holds none). */
export function roleAtLeast(role: Role, least: StaffRole): boolean {
  if (!isStaffRole(role)) return false;
  return staffRoles.indexOf(role) >= staffRoles.indexOf(least);
}
