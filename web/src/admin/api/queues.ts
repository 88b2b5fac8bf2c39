import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type AdminDepositView,
  type AdminVerificationView,
  type AdminWithdrawalView,
  adminDepositViewSchema,
  adminListDataSchema,
  type adminPaginationSchema,
  adminVerificationViewSchema,
  adminWithdrawalViewSchema,
} from "@tp/domain/admin-api";
import type { DepositStatus, VerificationStatus, WithdrawalStatus } from "@tp/domain/funding";
import type { z } from "zod";
import { adminGet, adminRootKey, queryString } from "./admin-request.ts";

/** The three review queues: GET /admin/{deposits,withdrawals,verifications}?status=&page=. */

export const queue_page_size = 25;

const depositListSchema = adminListDataSchema(adminDepositViewSchema);
const withdrawalListSchema = adminListDataSchema(adminWithdrawalViewSchema);
const verificationListSchema = adminListDataSchema(adminVerificationViewSchema);

export type QueueKind = "deposits" | "withdrawals" | "verifications";

export interface QueueFilter<Status extends string> {
  /** Undefined lists every status. */
  status: Status | undefined;
  page: number;
}

function listPath(kind: QueueKind, filter: QueueFilter<string>, limit = queue_page_size) {
  return `/admin/${kind}${queryString({ status: filter.status, page: filter.page, limit })}`;
}

/** One page of a queue, as its list endpoint answers. */
export interface QueuePageData<Item> {
  data: Item[];
  pagination: z.output<typeof adminPaginationSchema>;
}

/** The list of one queue, one status and one page (the previous page shows while it loads). */
export function queueQuery<Item>(
  kind: QueueKind,
  schema: z.ZodType<QueuePageData<Item>>,
  filter: QueueFilter<string>,
) {
  return queryOptions({
    queryKey: [...adminRootKey, kind, filter],
    queryFn: ({ signal }) => adminGet(listPath(kind, filter), schema, signal),
    placeholderData: keepPreviousData,
  });
}

export type QueueQueryOptions<Item> = ReturnType<typeof queueQuery<Item>>;

export function depositQueueQuery(
  filter: QueueFilter<DepositStatus>,
): QueueQueryOptions<AdminDepositView> {
  return queueQuery("deposits", depositListSchema, filter);
}

export function withdrawalQueueQuery(
  filter: QueueFilter<WithdrawalStatus>,
): QueueQueryOptions<AdminWithdrawalView> {
  return queueQuery("withdrawals", withdrawalListSchema, filter);
}

export function verificationQueueQuery(
  filter: QueueFilter<VerificationStatus>,
): QueueQueryOptions<AdminVerificationView> {
  return queueQuery("verifications", verificationListSchema, filter);
}

/** How many items wait for a decision in each queue: the navigation's badges. */
export const waitingStatus = {
  deposits: "under_review",
  withdrawals: "pending",
  verifications: "pending",
} as const satisfies Record<QueueKind, string>;

/** A queue's count refreshes this often while staff keep the back office open. */
export const waiting_count_refetch_ms = 30_000;

export function waitingCountQuery(kind: QueueKind) {
  const schema = adminListDataSchema(
    kind === "deposits"
      ? adminDepositViewSchema
      : kind === "withdrawals"
        ? adminWithdrawalViewSchema
        : adminVerificationViewSchema,
  );
  return queryOptions({
    queryKey: [...adminRootKey, "waiting-count", kind],
    queryFn: async ({ signal }) => {
      const list = await adminGet(
        listPath(kind, { status: waitingStatus[kind], page: 1 }, 1),
        schema,
        signal,
      );
      return list.pagination.total;
    },
    refetchInterval: waiting_count_refetch_ms,
  });
}

/** The staff-only file endpoints (served as attachments; fetched as blobs with the token). */
export function depositReceiptPath(depositId: number): string {
  return `/admin/deposits/${depositId}/receipt`;
}

export function verificationFilePath(verificationId: number): string {
  return `/admin/verifications/${verificationId}/file`;
}
