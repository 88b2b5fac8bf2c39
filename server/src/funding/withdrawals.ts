import { type AdminWithdrawalView, adminMessages } from "@tp/domain/admin-api";
import { amountNotAboveFeeMessage, feeBreakdown, feeScheduleOf } from "@tp/domain/fees";
import {
  type CreateWithdrawalData,
  type CreateWithdrawalRequest,
  fundingMessages,
  type WithdrawalStatus,
  type WithdrawalView,
} from "@tp/domain/funding";
import { centsFromDollars, dollarsFromCents, formatUsdFromCents } from "@tp/domain/money";
import type { AppContext } from "../app-context.ts";
import type { AuditActor } from "../audit/audit-log.ts";
import { hashOpaqueToken, newOpaqueToken } from "../auth/opaque-token.ts";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";
import { AppError, notFound, validationError } from "../http/errors.ts";
import type { IdempotencyKey } from "../idempotency/idempotency.ts";
import { type Reply, runIdempotent } from "../idempotency/idempotency.ts";
import {
  InsufficientFundsError,
  postEntry,
  systemAccountId,
  traderAccountId,
  traderBalances,
} from "../ledger/ledger.ts";
import { queueEmail } from "../mail/outbox.ts";
import { withdrawalConfirmationEmail } from "../mail/templates.ts";
import { type NotificationKind, storeNotification } from "../notifications/notifications.ts";
import { findUserById } from "../users/users.ts";
import { refuseUnlessFeeAsShown } from "./fee-as-shown.ts";
import { fourEyesThresholdCents, fourEyesView, needsSecondApproval } from "./four-eyes.ts";
import { publishFundingBalances } from "./funding-events.ts";
import { findPaymentMethod } from "./payment-methods.ts";
import { newTransactionReference } from "./references.ts";
import { type ReviewTransition, runReviewTransition } from "./review-transition.ts";
import { lockTraderFunding } from "./trader-funding-lock.ts";
import { withdrawalTimeline } from "./withdrawal-timeline.ts";

/**
 * Withdrawals (SPEC §4 "Withdrawal flow", PRODUCT.md D4, D9). The funding module owns the
 * `withdrawals` table.
 *
 *   pending, unconfirmed ──e-mailed link──▶ pending, confirmed (now in the staff queue)
 *      └──link expires (worker)──▶ cancelled (hold released)
 *   pending ──staff pay──▶ paid       (withdrawals:held → payouts:sent, fee → fees:collected)
 *      ├─────staff reject─▶ rejected  (withdrawals:held → trader real: the hold is released)
 *      └──trader cancels──▶ cancelled (likewise released)
 *
 * Issue 12 (Deriv's pattern): a request is confirmed by a single-use link e-mailed to the
 * trader before staff see it. The amount is held at the request, not at confirmation: the
 * balance shown is then always what can be spent (a trade cannot take money an instant
 * before it is confirmed out, and confirming never fails for want of funds), and a request
 * never confirmed is cancelled by the expiry worker with the same release entry as a
 * cancel, so the money is back within WITHDRAWAL_CONFIRMATION_HOURS.
 *
 * The request moves the amount out of the trader's real balance into the hold in the same
 * transaction that stores the row, by the ledger's guarded debit: a withdrawal and a trade
 * racing for one balance both debit the trader's account row, the second waits for the
 * first's row lock and re-reads the committed balance, so together they can never overdraw
 * it. Practice money is never touched: only the real account is debited.
 *
 * Fees (fees.ts): the fee is fixed on the row at the request and taken out of the amount:
 * the whole amount is held, amount − fee is paid out and the fee goes to fees:collected at
 * payout; a rejection or cancel releases the whole amount, fee included.
 *
 * Transitions lock the withdrawal row first and move only from `pending`; the resolving
 * entry is then posted (ledger accounts locked in the ledger's global order). Nothing locks
 * a ledger account and then a withdrawal row, so the two orders never cross.
 */

/** A trader may have this many withdrawals pending at once. */
export const pending_withdrawals_max = 10;

export interface WithdrawalRow {
  id: number;
  user_id: number;
  payment_method_id: string;
  method_name: string;
  amount_cents: number;
  /** Fixed at the request from the method's withdrawal fee; taken out of the payout. */
  fee_cents: number;
  transaction_hash: string;
  withdrawal_details: Record<string, string | number>;
  status: WithdrawalStatus;
  hold_entry_id: number;
  resolution_entry_id: number | null;
  reviewed_by_user_id: number | null;
  reviewer_email: string | null;
  reviewed_at: Date | null;
  rejection_reason: string | null;
  payout_reference: string | null;
  email_confirmed_at: Date | null;
  confirmation_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  trader_email: string;
  trader_first_name: string;
  trader_last_name: string;
  first_approved_by_user_id: number | null;
  first_approver_email: string | null;
  first_approved_at: Date | null;
}

const selectWithdrawals = `
  SELECT w.*, pm.name AS method_name, u.email AS trader_email,
         u.first_name AS trader_first_name, u.last_name AS trader_last_name,
         r.email AS reviewer_email, f.email AS first_approver_email
  FROM withdrawals w
  JOIN payment_methods pm ON pm.id = w.payment_method_id
  JOIN users u ON u.id = w.user_id
  LEFT JOIN users r ON r.id = w.reviewed_by_user_id
  LEFT JOIN users f ON f.id = w.first_approved_by_user_id`;

export function withdrawalView(row: WithdrawalRow): WithdrawalView {
  return {
    id: row.id,
    amount: dollarsFromCents(row.amount_cents),
    payment_method_id: row.payment_method_id,
    method: row.method_name,
    status: row.status,
    fee: dollarsFromCents(row.fee_cents),
    net_amount: dollarsFromCents(row.amount_cents - row.fee_cents),
    transaction_hash: row.transaction_hash,
    withdrawal_details: row.withdrawal_details,
    created_at: row.created_at.toISOString(),
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    rejection_reason: row.rejection_reason,
    payout_reference: row.payout_reference,
    email_confirmed_at: row.email_confirmed_at?.toISOString() ?? null,
    timeline: withdrawalTimeline(row),
  };
}

export function adminWithdrawalView(
  row: WithdrawalRow,
  threshold_cents: number,
): AdminWithdrawalView {
  return {
    ...withdrawalView(row),
    trader: {
      id: row.user_id,
      name: `${row.trader_first_name} ${row.trader_last_name}`.trim(),
      email: row.trader_email,
    },
    reviewed_by:
      row.reviewed_by_user_id === null
        ? null
        : { id: row.reviewed_by_user_id, email: row.reviewer_email ?? "" },
    four_eyes: fourEyesView(row, threshold_cents),
  };
}

export async function findWithdrawal(
  queryable: Queryable,
  id: number,
): Promise<WithdrawalRow | null> {
  const result = await queryable.query<WithdrawalRow>(`${selectWithdrawals} WHERE w.id = $1`, [id]);
  return result.rows[0] ?? null;
}

export async function findOwnWithdrawal(
  queryable: Queryable,
  userId: number,
  id: number,
): Promise<WithdrawalRow | null> {
  const result = await queryable.query<WithdrawalRow>(
    `${selectWithdrawals} WHERE w.id = $1 AND w.user_id = $2`,
    [id, userId],
  );
  return result.rows[0] ?? null;
}

export async function withdrawalsOfUser(
  queryable: Queryable,
  userId: number,
  limit: number,
): Promise<WithdrawalRow[]> {
  const result = await queryable.query<WithdrawalRow>(
    `${selectWithdrawals} WHERE w.user_id = $1 ORDER BY w.created_at DESC, w.id DESC LIMIT $2`,
    [userId, limit],
  );
  return result.rows;
}

/** The staff queue: oldest first, optionally by status. */
export async function withdrawalQueue(
  queryable: Queryable,
  status: WithdrawalStatus | undefined,
  page: number,
  limit: number,
): Promise<{ rows: WithdrawalRow[]; total: number }> {
  return countAndPage<WithdrawalRow>(queryable, {
    // Unconfirmed requests are the trader's business until the e-mailed link is opened.
    countSql: `SELECT COUNT(*)::bigint AS total FROM withdrawals
      WHERE ($1::text IS NULL OR status = $1::text)
        AND (status <> 'pending' OR email_confirmed_at IS NOT NULL)`,
    rowsSql: `${selectWithdrawals} WHERE ($1::text IS NULL OR w.status = $1::text)
       AND (w.status <> 'pending' OR w.email_confirmed_at IS NOT NULL)
     ORDER BY w.created_at, w.id`,
    params: [status ?? null],
    page,
    limit,
  });
}

interface LockedWithdrawal {
  id: number;
  user_id: number;
  status: WithdrawalStatus;
  amount_cents: number;
  fee_cents: number;
  email_confirmed_at: Date | null;
}

async function lockWithdrawal(
  transaction: Queryable,
  id: number,
  userId: number | null,
): Promise<LockedWithdrawal | null> {
  const result = await transaction.query<LockedWithdrawal>(
    `SELECT id, user_id, status, amount_cents, fee_cents, email_confirmed_at FROM withdrawals
     WHERE id = $1 AND ($2::bigint IS NULL OR user_id = $2::bigint) FOR UPDATE`,
    [id, userId],
  );
  return result.rows[0] ?? null;
}

type CreateWithdrawalBody = { status: "success"; message: string; data: CreateWithdrawalData };

/**
 * POST /withdrawals. Checks, in order: the method (422 "Invalid withdrawal method", or
 * "Payment method currently unavailable" when staff switched it off), a verified e-mail and
 * approved identity documents (403, each configurable), then the hold itself (422
 * "Insufficient balance" when the real balance cannot cover it).
 */
export async function requestWithdrawal(
  context: AppContext,
  userId: number,
  input: CreateWithdrawalRequest,
  idempotency: IdempotencyKey | null,
): Promise<Reply<CreateWithdrawalBody>> {
  const { database, clock, config } = context;
  const at = clock.now();
  const amountCents = centsFromDollars(input.amount)!;
  const reply = await runIdempotent(database, userId, idempotency, at, async (transaction) => {
    const method = await findPaymentMethod(transaction, input.payment_method_id);
    if (!method) {
      throw validationError({ payment_method_id: [fundingMessages.invalidWithdrawalMethod] });
    }
    if (!method.is_active) {
      throw new AppError("PAYMENT_METHOD_INACTIVE", fundingMessages.methodCurrentlyUnavailable);
    }
    // The fee the trader was shown, kept on the row: a later change does not touch it.
    const schedule = feeScheduleOf(method, "withdrawal");
    const fee = feeBreakdown(amountCents, schedule);
    if (!fee) throw validationError({ amount: [amountNotAboveFeeMessage(amountCents, schedule)] });
    refuseUnlessFeeAsShown(method.name, input.expected_fee, fee.fee_cents);
    const user = await findUserById(transaction, userId);
    if (!user) throw notFound();
    if (config.REQUIRE_VERIFIED_EMAIL_FOR_WITHDRAWAL && !user.email_verified_at) {
      throw new AppError("EMAIL_NOT_VERIFIED", fundingMessages.emailNotVerified);
    }
    if (config.REQUIRE_KYC_FOR_WITHDRAWAL && !user.kyc_verified_at) {
      throw new AppError("IDENTITY_NOT_VERIFIED", fundingMessages.identityNotVerified);
    }
    await lockTraderFunding(transaction, userId);
    const pending = await transaction.query<{ total: number }>(
      "SELECT COUNT(*)::bigint AS total FROM withdrawals WHERE user_id = $1 AND status = 'pending'",
      [userId],
    );
    if (pending.rows[0]!.total >= pending_withdrawals_max) {
      throw new AppError(
        "TOO_MANY_PENDING_WITHDRAWALS",
        `You have ${pending_withdrawals_max} withdrawals pending. Wait for one to be processed or cancel it first.`,
      );
    }

    // The id first, so the hold's journal entry can name the withdrawal it holds for.
    const next = await transaction.query<{ id: number }>(
      "SELECT nextval(pg_get_serial_sequence('withdrawals', 'id')) AS id",
    );
    const withdrawalId = next.rows[0]!.id;
    let holdEntryId: number;
    try {
      holdEntryId = await postEntry(transaction, {
        kind: "withdrawal_hold",
        reference: `withdrawal:${withdrawalId}`,
        at,
        postings: [
          {
            accountId: await traderAccountId(transaction, userId, "real"),
            amountCents: -amountCents,
          },
          {
            accountId: await systemAccountId(transaction, "withdrawals:held"),
            amountCents,
          },
        ],
      });
    } catch (error) {
      if (error instanceof InsufficientFundsError) {
        throw new AppError("INSUFFICIENT_FUNDS", fundingMessages.insufficientBalance);
      }
      throw error;
    }
    const confirmation = newOpaqueToken();
    const validHours = config.WITHDRAWAL_CONFIRMATION_HOURS;
    await transaction.query(
      `INSERT INTO withdrawals (id, user_id, payment_method_id, amount_cents, transaction_hash,
                                withdrawal_details, hold_entry_id, created_at, updated_at,
                                confirmation_token_hash, confirmation_expires_at, fee_cents)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $8, $9, $10, $11)`,
      [
        withdrawalId,
        userId,
        method.id,
        amountCents,
        newTransactionReference("WDR"),
        JSON.stringify(input.withdrawal_details),
        holdEntryId,
        at,
        confirmation.hash,
        new Date(at.getTime() + validHours * hour_ms),
        fee.fee_cents,
      ],
    );
    const withdrawal = (await findWithdrawal(transaction, withdrawalId))!;
    await queueEmail(
      transaction,
      withdrawalConfirmationEmail({
        publicUrl: config.PUBLIC_URL,
        siteName: context.siteContent.company.name,
        to: user.email,
        token: confirmation.token,
        reference: withdrawal.transaction_hash,
        amount: formatUsdFromCents(amountCents),
        fee:
          fee.fee_cents > 0
            ? {
                fee: formatUsdFromCents(fee.fee_cents),
                paidOut: formatUsdFromCents(fee.net_cents),
              }
            : null,
        method: withdrawal.method_name,
        validHours,
      }),
      at,
    );
    await storeNotification(transaction, {
      userId,
      kind: "withdrawal_requested",
      title: "Withdrawal requested",
      message: `Your withdrawal of ${formatUsdFromCents(amountCents)}${fee.fee_cents > 0 ? ` (${formatUsdFromCents(fee.net_cents)} paid out after the ${formatUsdFromCents(fee.fee_cents)} fee)` : ""} via ${withdrawal.method_name} (${withdrawal.transaction_hash}) waits for your confirmation: open the link we e-mailed you within ${validHours} hours. It is then normally processed within 24-48 hours.`,
      reference: `withdrawal:${withdrawalId}`,
      at,
    });
    const balances = await traderBalances(transaction, userId);
    return {
      statusCode: 201,
      body: {
        status: "success" as const,
        message: fundingMessages.withdrawalRequested,
        data: {
          withdrawal_id: withdrawalId,
          transaction_hash: withdrawal.transaction_hash,
          withdrawal: withdrawalView(withdrawal),
          account_balance: dollarsFromCents(balances.real_cents),
        },
      },
    };
  });
  if (!reply.replayed) {
    context.outbox.kick();
    await publishFundingBalances(context, [userId]);
  }
  return reply;
}

const hour_ms = 60 * 60 * 1000;

/**
 * POST /withdrawals/confirm: the token of the e-mailed link confirms its withdrawal once,
 * while it is pending and the link is alive; only then do staff see it. A second click on
 * a link that already worked says so, rather than "invalid".
 */
export async function confirmWithdrawal(
  context: AppContext,
  token: string,
): Promise<{ outcome: "confirmed" | "already_confirmed"; withdrawal: WithdrawalView }> {
  const { database, clock } = context;
  return database.transaction(async (transaction) => {
    const at = clock.now();
    const found = await transaction.query<{
      id: number;
      status: WithdrawalStatus;
      email_confirmed_at: Date | null;
      confirmation_expires_at: Date | null;
    }>(
      `SELECT id, status, email_confirmed_at, confirmation_expires_at FROM withdrawals
       WHERE confirmation_token_hash = $1 FOR UPDATE`,
      [hashOpaqueToken(token)],
    );
    const row = found.rows[0];
    if (row?.email_confirmed_at) {
      return {
        outcome: "already_confirmed" as const,
        withdrawal: withdrawalView((await findWithdrawal(transaction, row.id))!),
      };
    }
    if (
      row?.status !== "pending" ||
      !row.confirmation_expires_at ||
      row.confirmation_expires_at <= at
    ) {
      throw validationError(
        { token: [fundingMessages.withdrawalConfirmLinkInvalid] },
        fundingMessages.withdrawalConfirmLinkInvalid,
      );
    }
    await transaction.query(
      "UPDATE withdrawals SET email_confirmed_at = $2, updated_at = $2 WHERE id = $1",
      [row.id, at],
    );
    return {
      outcome: "confirmed" as const,
      withdrawal: withdrawalView((await findWithdrawal(transaction, row.id))!),
    };
  });
}

/** Unconfirmed withdrawals the expiry worker cancels per batch. */
export const withdrawal_expiry_batch_max = 50;

/**
 * Cancels pending withdrawals whose confirmation link expired unopened, releasing each
 * hold (the same entry as a trader's cancel). Rows are claimed with SKIP LOCKED, so two
 * processes never take the same one; returns how many it claimed.
 */
export async function expireUnconfirmedWithdrawals(
  context: Pick<AppContext, "database" | "bus">,
  now: Date,
): Promise<number> {
  const { database } = context;
  const expired = await database.transaction(async (transaction) => {
    const due = await transaction.query<{ id: number; user_id: number }>(
      `SELECT id, user_id FROM withdrawals
       WHERE status = 'pending' AND email_confirmed_at IS NULL AND confirmation_expires_at <= $1
       ORDER BY confirmation_expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, withdrawal_expiry_batch_max],
    );
    for (const row of due.rows) {
      await runReviewTransition(
        transaction,
        now,
        withdrawalResolution(row.id, null, { to: "cancelled", by: "expiry" }, null, now),
      );
    }
    return due.rows;
  });
  if (expired.length > 0) {
    await publishFundingBalances(
      context,
      expired.map((row) => row.user_id),
    );
  }
  return expired.length;
}

type Resolution =
  | { to: "cancelled"; by: "trader" }
  | { to: "cancelled"; by: "expiry" }
  | { to: "rejected"; by: "staff"; reason: string }
  | { to: "paid"; by: "staff"; payoutReference: string | null };

/**
 * Moves a pending withdrawal to its end state with the entry that resolves the hold
 * (review-transition.ts runs the pieces). The trader may only touch their own (`ownerId`);
 * staff any, and add their audit record.
 */
function withdrawalResolution(
  withdrawalId: number,
  ownerId: number | null,
  resolution: Resolution,
  reviewerId: number | null,
  at: Date,
): ReviewTransition<LockedWithdrawal, WithdrawalRow> {
  return {
    subject: `withdrawal ${withdrawalId}`,
    lock: (transaction) => lockWithdrawal(transaction, withdrawalId, ownerId),
    from: ["pending"],
    refused: () =>
      new AppError(
        "WITHDRAWAL_NOT_PENDING",
        resolution.by === "trader"
          ? fundingMessages.withdrawalNotPending
          : adminMessages.withdrawalNotPending,
      ),
    read: async (transaction) => (await findWithdrawal(transaction, withdrawalId))!,
    ledger: async (transaction, { locked }) => {
      const held = await systemAccountId(transaction, "withdrawals:held");
      return postEntry(
        transaction,
        resolution.to === "paid"
          ? {
              kind: "withdrawal_paid",
              reference: `withdrawal:${withdrawalId}`,
              at,
              postings: [
                { accountId: held, amountCents: -locked.amount_cents },
                {
                  accountId: await systemAccountId(transaction, "payouts:sent"),
                  amountCents: locked.amount_cents - locked.fee_cents,
                },
                // A posting is never zero: no fee, no fee line.
                ...(locked.fee_cents > 0
                  ? [
                      {
                        accountId: await systemAccountId(transaction, "fees:collected"),
                        amountCents: locked.fee_cents,
                      },
                    ]
                  : []),
              ],
            }
          : {
              kind: "withdrawal_release",
              reference: `withdrawal:${withdrawalId}`,
              at,
              postings: [
                { accountId: held, amountCents: -locked.amount_cents },
                {
                  accountId: await traderAccountId(transaction, locked.user_id, "real"),
                  amountCents: locked.amount_cents,
                },
              ],
            },
      );
    },
    update: (transaction, { entryId }) =>
      transaction.query(
        `UPDATE withdrawals SET status = $2, resolution_entry_id = $3, reviewed_by_user_id = $4,
           reviewed_at = CASE WHEN $4::bigint IS NULL THEN NULL ELSE $5::timestamptz END,
           rejection_reason = $6, payout_reference = $7, updated_at = $5
         WHERE id = $1 AND status = 'pending'`,
        [
          withdrawalId,
          resolution.to,
          entryId,
          reviewerId,
          at,
          resolution.to === "rejected" ? resolution.reason : null,
          resolution.to === "paid" ? resolution.payoutReference : null,
        ],
      ),
    notification: ({ locked, after }) => {
      const amount = formatUsdFromCents(locked.amount_cents);
      const what = `Your withdrawal of ${amount} via ${after.method_name} (${after.transaction_hash})`;
      const notices: Record<
        Resolution["to"],
        { kind: NotificationKind; title: string; message: string }
      > = {
        paid: {
          kind: "withdrawal_paid",
          title: "Withdrawal paid",
          message:
            locked.fee_cents > 0
              ? `${what} has been paid: ${formatUsdFromCents(locked.amount_cents - locked.fee_cents)} sent after the ${formatUsdFromCents(locked.fee_cents)} fee. Payout reference: ${after.payout_reference}.`
              : `${what} has been paid. Payout reference: ${after.payout_reference}.`,
        },
        rejected: {
          kind: "withdrawal_rejected",
          title: "Withdrawal rejected",
          message: `${what} was rejected: ${after.rejection_reason}. The amount is back in your real balance.`,
        },
        cancelled: {
          kind: "withdrawal_cancelled",
          title: "Withdrawal cancelled",
          message:
            resolution.by === "expiry"
              ? `${what} was not confirmed from the e-mailed link in time and was cancelled. The amount is back in your real balance.`
              : `${what} was cancelled. The amount is back in your real balance.`,
        },
      };
      return {
        userId: locked.user_id,
        ...notices[resolution.to],
        reference: `withdrawal:${withdrawalId}`,
      };
    },
  };
}

type WithdrawalReplyBody = {
  status: "success";
  message: string;
  data: { withdrawal: WithdrawalView };
};

/**
 * DELETE /withdrawals/{id}: the owner cancels while pending; the hold is released through
 * the ledger's one writer. Idempotent: an already cancelled one answers 200 unchanged.
 */
export async function cancelWithdrawal(
  context: AppContext,
  userId: number,
  withdrawalId: number,
  idempotency: IdempotencyKey | null,
): Promise<Reply<WithdrawalReplyBody>> {
  const { database, clock } = context;
  const at = clock.now();
  const reply = await runIdempotent(database, userId, idempotency, at, async (transaction) => {
    // Cancelling what is already cancelled (a second click, a retry without a key) says
    // so again rather than failing: the trader's wish holds and nothing moves twice.
    const locked = await lockWithdrawal(transaction, withdrawalId, userId);
    if (locked?.status === "cancelled") {
      return {
        statusCode: 200,
        body: {
          status: "success" as const,
          message: fundingMessages.withdrawalCancelled,
          data: { withdrawal: withdrawalView((await findWithdrawal(transaction, withdrawalId))!) },
        },
      };
    }
    const { after } = await runReviewTransition(
      transaction,
      at,
      withdrawalResolution(withdrawalId, userId, { to: "cancelled", by: "trader" }, null, at),
    );
    return {
      statusCode: 200,
      body: {
        status: "success" as const,
        message: fundingMessages.withdrawalCancelled,
        data: { withdrawal: withdrawalView(after) },
      },
    };
  });
  if (!reply.replayed) await publishFundingBalances(context, [userId]);
  return reply;
}

type AdminWithdrawalReplyBody = {
  status: "success";
  message: string;
  data: { withdrawal: AdminWithdrawalView };
};

/**
 * Staff: paid (with the payout reference) or rejected (with a reason, hold released). Above
 * FOUR_EYES_THRESHOLD_DOLLARS "paid" is two steps by two different reviewers: the first
 * approves without a reference (nothing is paid; the hold stays), the second pays and gives
 * the reference. A rejection by either is enough.
 */
export async function reviewWithdrawal(
  context: AppContext,
  actor: AuditActor & { userId: number },
  withdrawalId: number,
  decision: { to: "paid"; payoutReference: string | null } | { to: "rejected"; reason: string },
  idempotency: IdempotencyKey | null,
): Promise<Reply<AdminWithdrawalReplyBody>> {
  const { database, clock, config } = context;
  const at = clock.now();
  const threshold_cents = fourEyesThresholdCents(config);
  const reply = await runIdempotent(
    database,
    actor.userId,
    idempotency,
    at,
    async (transaction) => {
      // Staff never act on a request its owner has not confirmed (they cannot see it).
      const locked = await lockWithdrawal(transaction, withdrawalId, null);
      if (locked?.status === "pending" && !locked.email_confirmed_at) throw notFound();
      const { after, step } = await runReviewTransition(transaction, at, {
        ...withdrawalResolution(withdrawalId, null, { ...decision, by: "staff" }, actor.userId, at),
        fourEyes:
          decision.to === "paid"
            ? {
                needed: (before) => needsSecondApproval(before.amount_cents, threshold_cents),
                firstApprover: (before) => before.first_approved_by_user_id,
                approverId: actor.userId,
                sameApprover: () =>
                  new AppError("SECOND_APPROVER_REQUIRED", adminMessages.sameReviewerTwice),
                check: (step) => {
                  if (step === "first" && decision.payoutReference !== null) {
                    throw validationError({
                      payout_reference: [adminMessages.payoutAfterSecondApproval],
                    });
                  }
                  if (step === "final" && decision.payoutReference === null) {
                    throw validationError({
                      payout_reference: [adminMessages.payoutReferenceRequired],
                    });
                  }
                },
                recordFirst: (transaction) =>
                  transaction.query(
                    `UPDATE withdrawals SET first_approved_by_user_id = $2, first_approved_at = $3,
                       updated_at = $3
                     WHERE id = $1 AND status = 'pending' AND first_approved_by_user_id IS NULL`,
                    [withdrawalId, actor.userId, at],
                  ),
                firstAction: "withdrawal.first_approved",
              }
            : undefined,
        audit: {
          actor,
          action: decision.to === "paid" ? "withdrawal.paid" : "withdrawal.rejected",
          targetType: "withdrawal",
          targetId: withdrawalId,
          state: auditState,
        },
      });
      return {
        statusCode: 200,
        body: {
          status: "success" as const,
          message:
            decision.to === "rejected"
              ? adminMessages.withdrawalRejected
              : step === "first"
                ? adminMessages.withdrawalFirstApproval
                : adminMessages.withdrawalPaid,
          data: { withdrawal: adminWithdrawalView(after, threshold_cents) },
        },
      };
    },
  );
  if (!reply.replayed && reply.body.data.withdrawal.status !== "pending") {
    await publishFundingBalances(context, [reply.body.data.withdrawal.trader.id]);
  }
  return reply;
}

function auditState(row: WithdrawalRow) {
  return {
    status: row.status,
    amount_cents: row.amount_cents,
    fee_cents: row.fee_cents,
    user_id: row.user_id,
    payment_method_id: row.payment_method_id,
    transaction_hash: row.transaction_hash,
    withdrawal_details: row.withdrawal_details,
    rejection_reason: row.rejection_reason,
    payout_reference: row.payout_reference,
    resolution_entry_id: row.resolution_entry_id,
    first_approved_by_user_id: row.first_approved_by_user_id,
    reviewed_by_user_id: row.reviewed_by_user_id,
  };
}
