import { type AdminVerificationView, adminMessages } from "@tp/domain/admin-api";
import {
  fundingMessages,
  type IdType,
  type VerificationStatus,
  type VerificationView,
  verificationFieldsSchema,
} from "@tp/domain/funding";
import { identityContentTypes } from "@tp/domain/funding-files";
import { fieldErrorsFrom } from "@tp/domain/validation";
import type { AppContext } from "../app-context.ts";
import type { AuditActor } from "../audit/audit-log.ts";
import { countAndPage } from "../db/count-and-page.ts";
import type { Queryable } from "../db/database.ts";
import { AppError, notFound, validationError } from "../http/errors.ts";
import {
  keepUpload,
  type ReceivedForm,
  removeStoredFile,
  type UploadRow,
} from "../uploads/upload-store.ts";
import { lockUserIdentity, markIdentityVerified } from "../users/users.ts";
import { runReviewTransition } from "./review-transition.ts";

/**
 * Identity documents (SPEC §2 "Security", §5 "ID verification", PRODUCT.md D7). The funding
 * module owns `verification_documents`.
 *
 *   pending ──approve──▶ approved (users.kyc_verified_at set: Account Status "Active")
 *      └─────reject────▶ rejected (the trader may upload again)
 *
 * One document is under review per trader at a time (a unique index backs the check). The
 * approval stamps the trader verified through the users module (`markIdentityVerified`), in
 * this transition's transaction, so both commit together.
 */

export interface VerificationRow {
  id: number;
  user_id: number;
  id_type: IdType | null;
  upload_id: number;
  status: VerificationStatus;
  reviewed_by_user_id: number | null;
  reviewer_email: string | null;
  reviewed_at: Date | null;
  rejection_reason: string | null;
  created_at: Date;
  content_type: string;
  size_bytes: number;
  trader_email: string;
  trader_first_name: string;
  trader_last_name: string;
  trader_email_verified_at: Date | null;
  trader_kyc_verified_at: Date | null;
}

const selectVerifications = `
  SELECT v.*, up.content_type, up.size_bytes, u.email AS trader_email,
         u.first_name AS trader_first_name, u.last_name AS trader_last_name,
         u.email_verified_at AS trader_email_verified_at,
         u.kyc_verified_at AS trader_kyc_verified_at, r.email AS reviewer_email
  FROM verification_documents v
  JOIN uploads up ON up.id = v.upload_id
  JOIN users u ON u.id = v.user_id
  LEFT JOIN users r ON r.id = v.reviewed_by_user_id`;

export function verificationView(row: VerificationRow): VerificationView {
  return {
    id: row.id,
    id_type: row.id_type,
    status: row.status,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    created_at: row.created_at.toISOString(),
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    rejection_reason: row.rejection_reason,
  };
}

export function adminVerificationView(row: VerificationRow): AdminVerificationView {
  return {
    ...verificationView(row),
    trader: {
      id: row.user_id,
      name: `${row.trader_first_name} ${row.trader_last_name}`.trim(),
      email: row.trader_email,
    },
    reviewed_by:
      row.reviewed_by_user_id === null
        ? null
        : { id: row.reviewed_by_user_id, email: row.reviewer_email ?? "" },
    email_verified_at: row.trader_email_verified_at?.toISOString() ?? null,
    kyc_verified_at: row.trader_kyc_verified_at?.toISOString() ?? null,
  };
}

export async function findVerification(
  queryable: Queryable,
  id: number,
): Promise<VerificationRow | null> {
  const result = await queryable.query<VerificationRow>(`${selectVerifications} WHERE v.id = $1`, [
    id,
  ]);
  return result.rows[0] ?? null;
}

export async function findOwnVerification(
  queryable: Queryable,
  userId: number,
  id: number,
): Promise<VerificationRow | null> {
  const result = await queryable.query<VerificationRow>(
    `${selectVerifications} WHERE v.id = $1 AND v.user_id = $2`,
    [id, userId],
  );
  return result.rows[0] ?? null;
}

export async function verificationsOfUser(
  queryable: Queryable,
  userId: number,
  limit: number,
): Promise<VerificationRow[]> {
  const result = await queryable.query<VerificationRow>(
    `${selectVerifications} WHERE v.user_id = $1 ORDER BY v.created_at DESC, v.id DESC LIMIT $2`,
    [userId, limit],
  );
  return result.rows;
}

export async function verificationQueue(
  queryable: Queryable,
  status: VerificationStatus | undefined,
  page: number,
  limit: number,
): Promise<{ rows: VerificationRow[]; total: number }> {
  return countAndPage<VerificationRow>(queryable, {
    countSql: `SELECT COUNT(*)::bigint AS total FROM verification_documents
     WHERE ($1::text IS NULL OR status = $1::text)`,
    rowsSql: `${selectVerifications} WHERE ($1::text IS NULL OR v.status = $1::text)
     ORDER BY v.created_at, v.id`,
    params: [status ?? null],
    page,
    limit,
  });
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "23505";
}

/**
 * POST /upload-verification: accept_terms (1), the file (JPG, JPEG, PNG or PDF by content,
 * ≤ 10 MB) and the optional ID type; the document waits for staff.
 */
export async function uploadVerification(
  context: AppContext,
  uploadsDirectory: string,
  userId: number,
  form: ReceivedForm,
): Promise<{ status: "success"; message: string; data: { verification: VerificationView } }> {
  const { database, clock } = context;
  const at = clock.now();
  const parsed = verificationFieldsSchema.safeParse(form.fields);
  const errors = parsed.success ? {} : fieldErrorsFrom(parsed.error);
  const file = form.file;
  if (!file || file.sizeBytes === 0) errors.file = [fundingMessages.fileRequired];
  else if (!file.contentType || !identityContentTypes.includes(file.contentType)) {
    errors.file = [fundingMessages.identityFileType];
  }
  // The terms first: the form's own first message (SPEC §5).
  if (errors.accept_terms) {
    throw validationError(errors, fundingMessages.acceptTermsFirst);
  }
  if (Object.keys(errors).length > 0 || !parsed.success) throw validationError(errors);

  let kept: UploadRow | null = null;
  let verificationId: number;
  try {
    verificationId = await database.transaction(async (transaction) => {
      // Two uploads of one trader, or an upload and an approval, take their turns.
      const user = await lockUserIdentity(transaction, userId);
      if (!user) throw notFound();
      if (user.kyc_verified_at) {
        throw new AppError("IDENTITY_ALREADY_VERIFIED", fundingMessages.identityAlreadyVerified);
      }
      const pending = await transaction.query(
        "SELECT 1 FROM verification_documents WHERE user_id = $1 AND status = 'pending'",
        [userId],
      );
      if (pending.rowCount > 0) {
        throw new AppError("VERIFICATION_ALREADY_PENDING", fundingMessages.identityAlreadyPending);
      }
      kept = await keepUpload(
        transaction,
        uploadsDirectory,
        { ...file!, contentType: file!.contentType! },
        { userId, purpose: "identity", at },
      );
      const inserted = await transaction.query<{ id: number }>(
        `INSERT INTO verification_documents (user_id, id_type, upload_id, terms_accepted_at, created_at)
         VALUES ($1, $2, $3, $4, $4) RETURNING id`,
        [userId, parsed.data.id_type, kept.id, at],
      );
      return inserted.rows[0]!.id;
    });
  } catch (error) {
    if (kept) await removeStoredFile(uploadsDirectory, (kept as UploadRow).storage_name);
    // Two uploads at once: the unique index lets one through.
    if (isUniqueViolation(error)) {
      throw new AppError("VERIFICATION_ALREADY_PENDING", fundingMessages.identityAlreadyPending);
    }
    throw error;
  }
  const verification = (await findVerification(database, verificationId))!;
  return {
    status: "success" as const,
    message: fundingMessages.verificationUploaded,
    data: { verification: verificationView(verification) },
  };
}

/** Staff approve (sets kyc_verified_at) or reject with a reason. */
export async function reviewVerification(
  context: AppContext,
  actor: AuditActor & { userId: number },
  verificationId: number,
  decision: { to: "approved" } | { to: "rejected"; reason: string },
): Promise<{
  status: "success";
  message: string;
  data: { verification: AdminVerificationView };
}> {
  const { database, clock } = context;
  const at = clock.now();
  return database.transaction(async (transaction) => {
    const { after } = await runReviewTransition(transaction, at, {
      subject: `verification ${verificationId}`,
      lock: async (transaction) => {
        const locked = await transaction.query<{ user_id: number; status: VerificationStatus }>(
          "SELECT user_id, status FROM verification_documents WHERE id = $1 FOR UPDATE",
          [verificationId],
        );
        return locked.rows[0] ?? null;
      },
      from: ["pending"],
      refused: () => new AppError("VERIFICATION_NOT_PENDING", adminMessages.verificationNotPending),
      read: async (transaction) => (await findVerification(transaction, verificationId))!,
      update: async (transaction, { locked }) => {
        const updated = await transaction.query(
          `UPDATE verification_documents SET status = $2, rejection_reason = $3,
             reviewed_by_user_id = $4, reviewed_at = $5
           WHERE id = $1 AND status = 'pending'`,
          [
            verificationId,
            decision.to,
            decision.to === "rejected" ? decision.reason : null,
            actor.userId,
            at,
          ],
        );
        if (decision.to === "approved") {
          await markIdentityVerified(transaction, locked.user_id, at);
        }
        return updated;
      },
      notification: ({ locked }) => ({
        userId: locked.user_id,
        ...(decision.to === "approved"
          ? {
              kind: "verification_approved" as const,
              title: "Identity verified",
              message: "Your identity documents have been approved. Your account is now active.",
            }
          : {
              kind: "verification_rejected" as const,
              title: "Identity documents rejected",
              message: `Your identity documents were rejected: ${decision.reason}. Please upload new documents on the Security page.`,
            }),
        reference: `verification:${verificationId}`,
      }),
      audit: {
        actor,
        action: decision.to === "approved" ? "verification.approved" : "verification.rejected",
        targetType: "verification",
        targetId: verificationId,
        state: (verification) => ({
          status: verification.status,
          user_id: verification.user_id,
          id_type: verification.id_type,
          rejection_reason: verification.rejection_reason,
          kyc_verified_at: verification.trader_kyc_verified_at?.toISOString() ?? null,
        }),
      },
    });
    return {
      status: "success" as const,
      message:
        decision.to === "approved"
          ? adminMessages.verificationApproved
          : adminMessages.verificationRejected,
      data: { verification: adminVerificationView(after) },
    };
  });
}
