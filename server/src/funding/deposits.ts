import type { AdminDepositView } from "@tp/domain/admin-api";
import { adminMessages } from "@tp/domain/admin-api";
import {
  type CreateDepositData,
  type CreateDepositRequest,
  type DepositStatus,
  type DepositView,
  fundingMessages,
  transaction_hash_length_max,
} from "@tp/domain/funding";
import { receiptContentTypes } from "@tp/domain/funding-files";
import { centsFromDollars, dollarsFromCents, formatUsdFromCents } from "@tp/domain/money";
import type { AppContext } from "../app-context.ts";
import type { AuditActor } from "../audit/audit-log.ts";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";
import { AppError, notFound, validationError } from "../http/errors.ts";
import type { IdempotencyKey } from "../idempotency/idempotency.ts";
import { type Reply, runIdempotent } from "../idempotency/idempotency.ts";
import { postEntry, systemAccountId, traderAccountId } from "../ledger/ledger.ts";
import {
  keepUpload,
  type ReceivedForm,
  removeStoredFile,
  type UploadRow,
} from "../uploads/upload-store.ts";
import { publishFundingBalances } from "./funding-events.ts";
import { findPaymentMethod, isAvailable } from "./payment-methods.ts";
import { newTransactionReference } from "./references.ts";
import { runReviewTransition } from "./review-transition.ts";

/**
 * Deposits (SPEC §4 "Deposit flow", PRODUCT.md D7, D9). The funding module owns the
 * `deposits` table.
 *
 *   awaiting_payment ──receipt──▶ under_review ──approve──▶ confirmed (real balance credited)
 *          │                                  └──reject───▶ rejected
 *          └──trader cancels──▶ cancelled
 *
 * Every transition is one UPDATE guarded by the state it leaves (`WHERE status = …`), run
 * after the row is locked, so two racing transitions cannot both happen: the second waits
 * for the row lock, re-reads the committed state and finds nothing to move. Approval posts
 * the one credit (deposits:clearing → trader real) in the same transaction, and a unique
 * index on the ledger (migration 004) refuses a second `deposit` entry for the same deposit
 * whatever happens. Locks: the deposit row first, then the ledger accounts in the ledger's
 * global order; nothing locks them the other way round, so this cannot deadlock.
 */

/** A trader may have this many deposits awaiting payment at once. */
export const awaiting_deposits_max = 10;

export interface DepositRow {
  id: number;
  user_id: number;
  payment_method_id: string;
  method_name: string;
  amount_cents: number;
  transaction_hash: string;
  status: DepositStatus;
  receipt_upload_id: number | null;
  receipt_uploaded_at: Date | null;
  reviewed_by_user_id: number | null;
  reviewer_email: string | null;
  reviewed_at: Date | null;
  rejection_reason: string | null;
  journal_entry_id: number | null;
  created_at: Date;
  trader_email: string;
  trader_first_name: string;
  trader_last_name: string;
  receipt_content_type: string | null;
  receipt_size_bytes: number | null;
}

const selectDeposits = `
  SELECT d.*, pm.name AS method_name, u.email AS trader_email,
         u.first_name AS trader_first_name, u.last_name AS trader_last_name,
         r.email AS reviewer_email, up.content_type AS receipt_content_type,
         up.size_bytes AS receipt_size_bytes
  FROM deposits d
  JOIN payment_methods pm ON pm.id = d.payment_method_id
  JOIN users u ON u.id = d.user_id
  LEFT JOIN users r ON r.id = d.reviewed_by_user_id
  LEFT JOIN uploads up ON up.id = d.receipt_upload_id`;

export function depositView(row: DepositRow): DepositView {
  return {
    id: row.id,
    amount: dollarsFromCents(row.amount_cents),
    payment_method_id: row.payment_method_id,
    method: row.method_name,
    status: row.status,
    transaction_hash: row.transaction_hash,
    created_at: row.created_at.toISOString(),
    has_receipt: row.receipt_upload_id !== null,
    receipt_uploaded_at: row.receipt_uploaded_at?.toISOString() ?? null,
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    rejection_reason: row.rejection_reason,
  };
}

export function adminDepositView(row: DepositRow): AdminDepositView {
  return {
    ...depositView(row),
    trader: {
      id: row.user_id,
      name: `${row.trader_first_name} ${row.trader_last_name}`.trim(),
      email: row.trader_email,
    },
    reviewed_by:
      row.reviewed_by_user_id === null
        ? null
        : { id: row.reviewed_by_user_id, email: row.reviewer_email ?? "" },
    receipt_content_type: row.receipt_content_type,
    receipt_size_bytes: row.receipt_size_bytes,
  };
}

export async function findDeposit(queryable: Queryable, id: number): Promise<DepositRow | null> {
  const result = await queryable.query<DepositRow>(`${selectDeposits} WHERE d.id = $1`, [id]);
  return result.rows[0] ?? null;
}

/** The deposit if it is this trader's; another trader's is as good as missing (404). */
export async function findOwnDeposit(
  queryable: Queryable,
  userId: number,
  id: number,
): Promise<DepositRow | null> {
  const result = await queryable.query<DepositRow>(
    `${selectDeposits} WHERE d.id = $1 AND d.user_id = $2`,
    [id, userId],
  );
  return result.rows[0] ?? null;
}

/** Locks the deposit row for a transition; null when missing (or not the given trader's). */
async function lockDeposit(
  transaction: Queryable,
  id: number,
  userId: number | null,
): Promise<{ id: number; user_id: number; status: DepositStatus } | null> {
  const result = await transaction.query<{ id: number; user_id: number; status: DepositStatus }>(
    `SELECT id, user_id, status FROM deposits
     WHERE id = $1 AND ($2::bigint IS NULL OR user_id = $2::bigint) FOR UPDATE`,
    [id, userId],
  );
  return result.rows[0] ?? null;
}

/**
 * The pieces every transition of one deposit shares (review-transition.ts): its lock (the
 * given trader's only, when `ownerId` is set) and its reads.
 */
function depositRow(depositId: number, ownerId: number | null) {
  return {
    subject: `deposit ${depositId}`,
    lock: (transaction: Queryable) => lockDeposit(transaction, depositId, ownerId),
    read: async (transaction: Queryable) => (await findDeposit(transaction, depositId))!,
  };
}

export async function depositsOfUser(
  queryable: Queryable,
  userId: number,
  limit: number,
): Promise<DepositRow[]> {
  const result = await queryable.query<DepositRow>(
    `${selectDeposits} WHERE d.user_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
    [userId, limit],
  );
  return result.rows;
}

/** The staff queue: oldest first (first come, first served), optionally by status. */
export async function depositQueue(
  queryable: Queryable,
  status: DepositStatus | undefined,
  page: number,
  limit: number,
): Promise<{ rows: DepositRow[]; total: number }> {
  return countAndPage<DepositRow>(queryable, {
    countSql:
      "SELECT COUNT(*)::bigint AS total FROM deposits WHERE ($1::text IS NULL OR status = $1::text)",
    rowsSql: `${selectDeposits} WHERE ($1::text IS NULL OR d.status = $1::text)
     ORDER BY d.created_at, d.id`,
    params: [status ?? null],
    page,
    limit,
  });
}

type DepositReplyBody = { status: "success"; message: string; data: { deposit: DepositView } };

/**
 * POST /deposits: refuses an unknown method (422 "Invalid payment method"), an inactive one
 * ("Payment method currently unavailable") and one staff have not configured ("This payment
 * method is not available"); otherwise records the deposit awaiting payment with a new
 * payment reference.
 */
export async function createDeposit(
  context: AppContext,
  userId: number,
  input: CreateDepositRequest,
  idempotency: IdempotencyKey | null,
): Promise<Reply<{ status: "success"; message: string; data: CreateDepositData }>> {
  const { database, clock } = context;
  const at = clock.now();
  const amountCents = centsFromDollars(input.amount)!;
  return runIdempotent(database, userId, idempotency, at, async (transaction) => {
    const method = await findPaymentMethod(transaction, input.payment_method_id);
    if (!method) {
      throw validationError({ payment_method_id: [fundingMessages.invalidPaymentMethod] });
    }
    if (!method.is_active) {
      throw new AppError("PAYMENT_METHOD_INACTIVE", fundingMessages.methodCurrentlyUnavailable);
    }
    if (!isAvailable(method)) {
      throw new AppError("PAYMENT_METHOD_NOT_CONFIGURED", fundingMessages.methodNotAvailable);
    }
    const awaiting = await transaction.query<{ total: number }>(
      "SELECT COUNT(*)::bigint AS total FROM deposits WHERE user_id = $1 AND status = 'awaiting_payment'",
      [userId],
    );
    if (awaiting.rows[0]!.total >= awaiting_deposits_max) {
      throw new AppError(
        "TOO_MANY_AWAITING_DEPOSITS",
        `You have ${awaiting_deposits_max} deposits awaiting payment. Upload a receipt for one or cancel it first.`,
      );
    }
    const inserted = await transaction.query<{ id: number }>(
      `INSERT INTO deposits (user_id, payment_method_id, amount_cents, transaction_hash,
                             created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [userId, method.id, amountCents, newTransactionReference("DEP"), at],
    );
    const deposit = (await findDeposit(transaction, inserted.rows[0]!.id))!;
    return {
      statusCode: 201,
      body: {
        status: "success" as const,
        message: fundingMessages.depositCreated,
        data: {
          deposit_id: deposit.id,
          transaction_hash: deposit.transaction_hash,
          deposit: depositView(deposit),
        },
      },
    };
  });
}

/** DELETE /deposits/{id}: the owner, only while it awaits payment. */
export async function cancelDeposit(
  context: AppContext,
  userId: number,
  depositId: number,
  idempotency: IdempotencyKey | null,
): Promise<Reply<DepositReplyBody>> {
  const { database, clock } = context;
  const at = clock.now();
  return runIdempotent(database, userId, idempotency, at, async (transaction) => {
    const { after: deposit } = await runReviewTransition(transaction, at, {
      ...depositRow(depositId, userId),
      from: ["awaiting_payment"],
      refused: () =>
        new AppError("DEPOSIT_NOT_AWAITING_PAYMENT", fundingMessages.depositNotAwaitingPayment),
      update: (transaction) =>
        transaction.query(
          `UPDATE deposits SET status = 'cancelled', updated_at = $2
           WHERE id = $1 AND status = 'awaiting_payment'`,
          [depositId, at],
        ),
    });
    return {
      statusCode: 200,
      body: {
        status: "success" as const,
        message: fundingMessages.depositCancelled,
        data: { deposit: depositView(deposit) },
      },
    };
  });
}

/**
 * POST /deposits/{id}/receipt: the owner's receipt (an image or a PDF by content, ≤ 10 MB)
 * with the deposit's transaction hash; the deposit goes under review.
 */
export async function submitReceipt(
  context: AppContext,
  uploadsDirectory: string,
  userId: number,
  depositId: number,
  form: ReceivedForm,
): Promise<DepositReplyBody> {
  const { database, clock } = context;
  const at = clock.now();
  // Ownership first: another trader's deposit is a 404 whatever the form holds.
  const existing = await findOwnDeposit(database, userId, depositId);
  if (!existing) throw notFound();

  const hash = (form.fields.transaction_hash ?? "").trim();
  const file = form.file;
  const errors: Record<string, string[]> = {};
  if (hash.length === 0) errors.transaction_hash = [fundingMessages.transactionHashRequired];
  else if (hash.length > transaction_hash_length_max || hash !== existing.transaction_hash) {
    errors.transaction_hash = [fundingMessages.transactionHashMismatch];
  }
  if (!file || file.sizeBytes === 0) errors.receipt = [fundingMessages.receiptRequired];
  else if (!file.contentType || !receiptContentTypes.includes(file.contentType)) {
    errors.receipt = [fundingMessages.receiptType];
  }
  if (existing.status !== "awaiting_payment") {
    throw new AppError("DEPOSIT_NOT_AWAITING_PAYMENT", fundingMessages.depositNotAwaitingPayment);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);

  let kept: UploadRow | null = null;
  try {
    await database.transaction(async (transaction) => {
      const locked = await lockDeposit(transaction, depositId, userId);
      if (!locked) throw notFound();
      if (locked.status !== "awaiting_payment") {
        throw new AppError(
          "DEPOSIT_NOT_AWAITING_PAYMENT",
          fundingMessages.depositNotAwaitingPayment,
        );
      }
      kept = await keepUpload(
        transaction,
        uploadsDirectory,
        { ...file!, contentType: file!.contentType! },
        { userId, purpose: "receipt", at },
      );
      await transaction.query(
        `UPDATE deposits SET status = 'under_review', receipt_upload_id = $2,
           receipt_uploaded_at = $3, updated_at = $3
         WHERE id = $1 AND status = 'awaiting_payment'`,
        [depositId, kept.id, at],
      );
    });
  } catch (error) {
    if (kept) await removeStoredFile(uploadsDirectory, (kept as UploadRow).storage_name);
    throw error;
  }
  const deposit = (await findDeposit(database, depositId))!;
  return {
    status: "success" as const,
    message: fundingMessages.depositSubmitted,
    data: { deposit: depositView(deposit) },
  };
}

type AdminDepositReplyBody = {
  status: "success";
  message: string;
  data: { deposit: AdminDepositView };
};

/**
 * Staff approve a deposit under review: one transaction locks the row, credits the trader's
 * real balance (deposits:clearing → trader real), marks it confirmed, notifies the trader
 * and writes the audit record. A second approval, concurrent or later, finds it no longer
 * under review (409) and credits nothing.
 */
export async function approveDeposit(
  context: AppContext,
  actor: AuditActor & { userId: number },
  depositId: number,
  idempotency: IdempotencyKey | null,
): Promise<Reply<AdminDepositReplyBody>> {
  const { database, clock } = context;
  const at = clock.now();
  const reply = await runIdempotent(
    database,
    actor.userId,
    idempotency,
    at,
    async (transaction) => {
      const { after } = await runReviewTransition(transaction, at, {
        ...depositRow(depositId, null),
        from: ["under_review"],
        refused: () =>
          new AppError("DEPOSIT_NOT_UNDER_REVIEW", adminMessages.depositNotUnderReview),
        ledger: async (transaction, { before }) =>
          postEntry(transaction, {
            kind: "deposit",
            reference: `deposit:${depositId}`,
            at,
            postings: [
              {
                accountId: await systemAccountId(transaction, "deposits:clearing"),
                amountCents: -before.amount_cents,
              },
              {
                accountId: await traderAccountId(transaction, before.user_id, "real"),
                amountCents: before.amount_cents,
              },
            ],
          }),
        update: (transaction, { entryId }) =>
          transaction.query(
            `UPDATE deposits SET status = 'confirmed', journal_entry_id = $2,
               reviewed_by_user_id = $3, reviewed_at = $4, updated_at = $4
             WHERE id = $1 AND status = 'under_review'`,
            [depositId, entryId, actor.userId, at],
          ),
        notification: ({ before }) => ({
          userId: before.user_id,
          kind: "deposit_confirmed",
          title: "Deposit confirmed",
          message: `Your deposit of ${formatUsdFromCents(before.amount_cents)} via ${before.method_name} (${before.transaction_hash}) has been confirmed and credited to your real account.`,
          reference: `deposit:${depositId}`,
        }),
        audit: {
          actor,
          action: "deposit.approved",
          targetType: "deposit",
          targetId: depositId,
          state: auditState,
        },
      });
      return {
        statusCode: 200,
        body: {
          status: "success" as const,
          message: adminMessages.depositApproved,
          data: { deposit: adminDepositView(after) },
        },
      };
    },
  );
  if (!reply.replayed) await publishFundingBalances(context, [reply.body.data.deposit.trader.id]);
  return reply;
}

/** Staff reject a deposit under review with a reason; nothing was credited, nothing moves. */
export async function rejectDeposit(
  context: AppContext,
  actor: AuditActor & { userId: number },
  depositId: number,
  reason: string,
  idempotency: IdempotencyKey | null,
): Promise<Reply<AdminDepositReplyBody>> {
  const { database, clock } = context;
  const at = clock.now();
  return runIdempotent(database, actor.userId, idempotency, at, async (transaction) => {
    const { after } = await runReviewTransition(transaction, at, {
      ...depositRow(depositId, null),
      from: ["under_review"],
      refused: () => new AppError("DEPOSIT_NOT_UNDER_REVIEW", adminMessages.depositNotUnderReview),
      update: (transaction) =>
        transaction.query(
          `UPDATE deposits SET status = 'rejected', rejection_reason = $2,
             reviewed_by_user_id = $3, reviewed_at = $4, updated_at = $4
           WHERE id = $1 AND status = 'under_review'`,
          [depositId, reason, actor.userId, at],
        ),
      notification: ({ before }) => ({
        userId: before.user_id,
        kind: "deposit_rejected",
        title: "Deposit rejected",
        message: `Your deposit of ${formatUsdFromCents(before.amount_cents)} via ${before.method_name} (${before.transaction_hash}) was rejected: ${reason}`,
        reference: `deposit:${depositId}`,
      }),
      audit: {
        actor,
        action: "deposit.rejected",
        targetType: "deposit",
        targetId: depositId,
        state: auditState,
      },
    });
    return {
      statusCode: 200,
      body: {
        status: "success" as const,
        message: adminMessages.depositRejected,
        data: { deposit: adminDepositView(after) },
      },
    };
  });
}

function auditState(row: DepositRow) {
  return {
    status: row.status,
    amount_cents: row.amount_cents,
    user_id: row.user_id,
    payment_method_id: row.payment_method_id,
    transaction_hash: row.transaction_hash,
    rejection_reason: row.rejection_reason,
    journal_entry_id: row.journal_entry_id,
  };
}
