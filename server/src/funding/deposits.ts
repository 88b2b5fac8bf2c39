import type { AdminDepositView } from "@tp/domain/admin-api";
import { adminMessages } from "@tp/domain/admin-api";
import { amountNotAboveFeeMessage, feeBreakdown, feeScheduleOf } from "@tp/domain/fees";
import {
  awaiting_deposits_max,
  type CreateDepositData,
  type CreateDepositRequest,
  type DepositStatus,
  type DepositView,
  fundingMessages,
  tooManyAwaitingDepositsMessage,
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
import { refuseRealMoneyIn } from "../jurisdictions/restricted-countries.ts";
import { postEntry, systemAccountId, traderAccountId } from "../ledger/ledger.ts";
import { refuseDepositBeyondGuards } from "../responsible-trading/limits.ts";
import {
  keepUpload,
  type ReceivedForm,
  removeStoredFile,
  type UploadRow,
} from "../uploads/upload-store.ts";
import { refuseUnlessFeeAsShown } from "./fee-as-shown.ts";
import { fourEyesThresholdCents, fourEyesView, needsSecondApproval } from "./four-eyes.ts";
import { publishFundingBalances } from "./funding-events.ts";
import { findPaymentMethod, isAvailable } from "./payment-methods.ts";
import { newTransactionReference } from "./references.ts";
import { runReviewTransition } from "./review-transition.ts";
import { lockTraderFunding } from "./trader-funding-lock.ts";

/**
 * Deposits (SPEC §4 "Deposit flow", PRODUCT.md D7, D9). The funding module owns the
 * `deposits` table.
 *
 *   awaiting_payment ──receipt──▶ under_review ──approve──▶ confirmed (amount − fee credited)
 *          │                                  └──reject───▶ rejected
 *          ├──trader cancels──▶ cancelled
 *          └──unpaid past payment_expires_at (worker)──▶ expired (the trader is notified)
 *
 * Every transition is one UPDATE guarded by the state it leaves (`WHERE status = …`), run
 * after the row is locked, so two racing transitions cannot both happen: the second waits
 * for the row lock, re-reads the committed state and finds nothing to move. Approval posts
 * the one credit (deposits:clearing → trader real, amount − fee, and → fees:collected, the
 * fee snapshotted on the row at creation: fees.ts) in the same transaction, and a unique
 * index on the ledger (migration 004) refuses a second `deposit` entry for the same deposit
 * whatever happens. Locks: the deposit row first, then the ledger accounts in the ledger's
 * global order; nothing locks them the other way round, so this cannot deadlock.
 */

export { awaiting_deposits_max };

const hour_ms = 60 * 60 * 1000;

export interface DepositRow {
  id: number;
  user_id: number;
  payment_method_id: string;
  method_name: string;
  amount_cents: number;
  /** Fixed at creation from the method's deposit fee; taken out of the amount. */
  fee_cents: number;
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
  payment_expires_at: Date;
  trader_email: string;
  trader_first_name: string;
  trader_last_name: string;
  receipt_content_type: string | null;
  receipt_size_bytes: number | null;
  first_approved_by_user_id: number | null;
  first_approver_email: string | null;
  first_approved_at: Date | null;
}

const selectDeposits = `
  SELECT d.*, pm.name AS method_name, u.email AS trader_email,
         u.first_name AS trader_first_name, u.last_name AS trader_last_name,
         r.email AS reviewer_email, up.content_type AS receipt_content_type,
         up.size_bytes AS receipt_size_bytes, f.email AS first_approver_email
  FROM deposits d
  JOIN payment_methods pm ON pm.id = d.payment_method_id
  JOIN users u ON u.id = d.user_id
  LEFT JOIN users r ON r.id = d.reviewed_by_user_id
  LEFT JOIN users f ON f.id = d.first_approved_by_user_id
  LEFT JOIN uploads up ON up.id = d.receipt_upload_id`;

export function depositView(row: DepositRow): DepositView {
  return {
    id: row.id,
    amount: dollarsFromCents(row.amount_cents),
    payment_method_id: row.payment_method_id,
    method: row.method_name,
    status: row.status,
    fee: dollarsFromCents(row.fee_cents),
    net_amount: dollarsFromCents(row.amount_cents - row.fee_cents),
    transaction_hash: row.transaction_hash,
    created_at: row.created_at.toISOString(),
    payment_expires_at: row.payment_expires_at.toISOString(),
    has_receipt: row.receipt_upload_id !== null,
    receipt_uploaded_at: row.receipt_uploaded_at?.toISOString() ?? null,
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    rejection_reason: row.rejection_reason,
  };
}

export function adminDepositView(row: DepositRow, threshold_cents: number): AdminDepositView {
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
    four_eyes: fourEyesView(row, threshold_cents),
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
    // The fee the trader was shown, kept on the row: a later change does not touch it.
    const schedule = feeScheduleOf(method, "deposit");
    const fee = feeBreakdown(amountCents, schedule);
    if (!fee) throw validationError({ amount: [amountNotAboveFeeMessage(amountCents, schedule)] });
    refuseUnlessFeeAsShown(method.name, input.expected_fee, fee.fee_cents);
    await lockTraderFunding(transaction, userId);
    // The trader's own breaks and deposit limits (issue 14), under the lock just taken.
    await refuseDepositBeyondGuards(transaction, userId, amountCents, at);
    const awaiting = await transaction.query<{ total: number }>(
      "SELECT COUNT(*)::bigint AS total FROM deposits WHERE user_id = $1 AND status = 'awaiting_payment'",
      [userId],
    );
    if (awaiting.rows[0]!.total >= awaiting_deposits_max) {
      throw new AppError("TOO_MANY_AWAITING_DEPOSITS", tooManyAwaitingDepositsMessage);
    }
    const expiresAt = new Date(
      at.getTime() + context.config.DEPOSIT_PAYMENT_WINDOW_HOURS * hour_ms,
    );
    const inserted = await transaction.query<{ id: number }>(
      `INSERT INTO deposits (user_id, payment_method_id, amount_cents, fee_cents,
                             transaction_hash, created_at, updated_at, payment_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING id`,
      [
        userId,
        method.id,
        amountCents,
        fee.fee_cents,
        newTransactionReference("DEP"),
        at,
        expiresAt,
      ],
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

/** The refusal of a step that needs the deposit awaiting payment, in its own words. */
function notAwaitingPayment(status: DepositStatus): AppError {
  return new AppError(
    "DEPOSIT_NOT_AWAITING_PAYMENT",
    status === "expired"
      ? fundingMessages.depositExpired
      : fundingMessages.depositNotAwaitingPayment,
  );
}

/**
 * DELETE /deposits/{id}: the owner, only while it awaits payment. Idempotent: a deposit
 * already cancelled answers 200 unchanged (a second click, a retry without a key).
 */
export async function cancelDeposit(
  context: AppContext,
  userId: number,
  depositId: number,
  idempotency: IdempotencyKey | null,
): Promise<Reply<DepositReplyBody>> {
  const { database, clock } = context;
  const at = clock.now();
  return runIdempotent(database, userId, idempotency, at, async (transaction) => {
    const locked = await lockDeposit(transaction, depositId, userId);
    if (!locked) throw notFound();
    if (locked.status === "cancelled") {
      return {
        statusCode: 200,
        body: {
          status: "success" as const,
          message: fundingMessages.depositCancelled,
          data: { deposit: depositView((await findDeposit(transaction, depositId))!) },
        },
      };
    }
    const { after: deposit } = await runReviewTransition(transaction, at, {
      ...depositRow(depositId, userId),
      from: ["awaiting_payment"],
      refused: () => notAwaitingPayment(locked.status),
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
  /** The trader's declared country, as the session carries it. */
  country: string,
): Promise<DepositReplyBody> {
  const { database, clock } = context;
  const at = clock.now();
  // Ownership first: another trader's deposit is a 404 whatever the form holds.
  const existing = await findOwnDeposit(database, userId, depositId);
  if (!existing) throw notFound();
  // A deposit opened before the trader's country became restricted is not paid into the
  // account now: the payment is real money in. Cancelling it stays open to them.
  refuseRealMoneyIn(context.config, country);

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
  if (existing.status !== "awaiting_payment") throw notAwaitingPayment(existing.status);
  if (Object.keys(errors).length > 0) throw validationError(errors);

  let kept: UploadRow | null = null;
  try {
    await database.transaction(async (transaction) => {
      const locked = await lockDeposit(transaction, depositId, userId);
      if (!locked) throw notFound();
      if (locked.status !== "awaiting_payment") throw notAwaitingPayment(locked.status);
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

/** Unpaid deposits the expiry worker expires per batch. */
export const deposit_expiry_batch_max = 50;

/**
 * Expires deposits still awaiting payment when their window closed (issue 13): each moves
 * to `expired` with a notification to its trader, in one transaction with the others of
 * its batch, which frees its place under the cap. Nothing was credited, so nothing moves in
 * the ledger. A deposit whose proof arrived is under review and never expires. Rows are
 * claimed with SKIP LOCKED, so two processes never take the same one; returns how many it
 * claimed.
 */
export async function expireUnpaidDeposits(
  context: Pick<AppContext, "database">,
  now: Date,
): Promise<number> {
  return context.database.transaction(async (transaction) => {
    const due = await transaction.query<{ id: number }>(
      `SELECT id FROM deposits
       WHERE status = 'awaiting_payment' AND payment_expires_at <= $1
       ORDER BY payment_expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, deposit_expiry_batch_max],
    );
    for (const { id } of due.rows) {
      await runReviewTransition(transaction, now, {
        ...depositRow(id, null),
        from: ["awaiting_payment"],
        refused: () => notAwaitingPayment("expired"),
        update: (transaction) =>
          transaction.query(
            `UPDATE deposits SET status = 'expired', updated_at = $2
             WHERE id = $1 AND status = 'awaiting_payment'`,
            [id, now],
          ),
        notification: ({ before }) => ({
          userId: before.user_id,
          kind: "deposit_expired",
          title: "Deposit expired",
          message: `Your deposit of ${formatUsdFromCents(before.amount_cents)} via ${before.method_name} (${before.transaction_hash}) expired unpaid: no payment proof arrived in time. If you did pay, contact support with this reference.`,
          reference: `deposit:${id}`,
        }),
      });
    }
    return due.rows.length;
  });
}

type AdminDepositReplyBody = {
  status: "success";
  message: string;
  data: { deposit: AdminDepositView };
};

/**
 * Staff approve a deposit under review: one transaction locks the row, credits the trader's
 * real balance with amount − fee and the fees account with the fee (deposits:clearing →
 * trader real, fees:collected), marks it confirmed, notifies the trader
 * and writes the audit record. A second approval, concurrent or later, finds it no longer
 * under review (409) and credits nothing. Above FOUR_EYES_THRESHOLD_DOLLARS the first
 * approval only records itself (the deposit stays under review) and a different reviewer's
 * approval completes it; the same reviewer again is refused (SECOND_APPROVER_REQUIRED).
 */
export async function approveDeposit(
  context: AppContext,
  actor: AuditActor & { userId: number },
  depositId: number,
  idempotency: IdempotencyKey | null,
): Promise<Reply<AdminDepositReplyBody>> {
  const { database, clock, config } = context;
  const at = clock.now();
  const threshold_cents = fourEyesThresholdCents(config);
  const reply = await runIdempotent(
    database,
    actor.userId,
    idempotency,
    at,
    async (transaction) => {
      const { after, step } = await runReviewTransition(transaction, at, {
        ...depositRow(depositId, null),
        from: ["under_review"],
        fourEyes: {
          needed: (before) => needsSecondApproval(before.amount_cents, threshold_cents),
          firstApprover: (before) => before.first_approved_by_user_id,
          approverId: actor.userId,
          sameApprover: () =>
            new AppError("SECOND_APPROVER_REQUIRED", adminMessages.sameReviewerTwice),
          recordFirst: (transaction) =>
            transaction.query(
              `UPDATE deposits SET first_approved_by_user_id = $2, first_approved_at = $3,
                 updated_at = $3
               WHERE id = $1 AND status = 'under_review' AND first_approved_by_user_id IS NULL`,
              [depositId, actor.userId, at],
            ),
          firstAction: "deposit.first_approved",
        },
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
                amountCents: before.amount_cents - before.fee_cents,
              },
              // A posting is never zero: no fee, no fee line.
              ...(before.fee_cents > 0
                ? [
                    {
                      accountId: await systemAccountId(transaction, "fees:collected"),
                      amountCents: before.fee_cents,
                    },
                  ]
                : []),
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
          message:
            before.fee_cents > 0
              ? `Your deposit of ${formatUsdFromCents(before.amount_cents)} via ${before.method_name} (${before.transaction_hash}) has been confirmed: ${formatUsdFromCents(before.amount_cents - before.fee_cents)} (after the ${formatUsdFromCents(before.fee_cents)} fee) is credited to your real account.`
              : `Your deposit of ${formatUsdFromCents(before.amount_cents)} via ${before.method_name} (${before.transaction_hash}) has been confirmed and credited to your real account.`,
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
          message:
            step === "first" ? adminMessages.depositFirstApproval : adminMessages.depositApproved,
          data: { deposit: adminDepositView(after, threshold_cents) },
        },
      };
    },
  );
  if (!reply.replayed && reply.body.data.deposit.status === "confirmed") {
    await publishFundingBalances(context, [reply.body.data.deposit.trader.id]);
  }
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
  const { database, clock, config } = context;
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
        data: { deposit: adminDepositView(after, fourEyesThresholdCents(config)) },
      },
    };
  });
}

function auditState(row: DepositRow) {
  return {
    status: row.status,
    amount_cents: row.amount_cents,
    fee_cents: row.fee_cents,
    user_id: row.user_id,
    payment_method_id: row.payment_method_id,
    transaction_hash: row.transaction_hash,
    rejection_reason: row.rejection_reason,
    journal_entry_id: row.journal_entry_id,
    first_approved_by_user_id: row.first_approved_by_user_id,
    reviewed_by_user_id: row.reviewed_by_user_id,
  };
}
