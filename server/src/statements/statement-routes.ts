import {
  staffExportParamsSchema,
  staffExportQuerySchema,
  statementFileName,
  statementMessages,
  statementPeriod,
  statementQuerySchema,
} from "@tp/domain/statements";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../app-context.ts";
import { recordAudit } from "../audit/audit-log.ts";
import { sessionOf } from "../http/authenticate.ts";
import { validationError } from "../http/errors.ts";
import { fileReplySchema } from "../http/replies.ts";
import { bearerSecurity } from "../http/route-kit.ts";
import { leastStaffRole, staffTags } from "../http/staff-scope.ts";
import { rateRules } from "../rate-limit/rate-limiter.ts";
import { staffActorOf } from "../users/staff-actor.ts";
import { findUserById } from "../users/users.ts";
import { DataExportTooLargeError, traderDataExport } from "./data-export.ts";
import { ExportTooLargeError, type StaffExport, staffExportCsv } from "./staff-exports.ts";
import { StatementTooLongError, traderStatement } from "./statement.ts";
import { statementCsv, statementPdf } from "./statement-files.ts";

/** The period of a request, or a 422 saying per field what is wrong with it. */
function periodOf(query: { from: string; to: string }, now: Date) {
  const checked = statementPeriod(query.from, query.to, now);
  if ("errors" in checked) throw validationError(checked.errors);
  return checked.period;
}

/** A download: the browser saves it under `fileName`; no cache keeps a copy. */
function sendAttachment(
  reply: FastifyReply,
  contentType: string,
  fileName: string,
  body: string | Buffer,
) {
  return reply
    .header("content-type", contentType)
    .header("content-disposition", `attachment; filename="${fileName}"`)
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .send(body);
}

/** A trader's statements and data export (in the trader scope: staff hold no accounts). */
export async function statementRoutes(traders: FastifyInstance, context: AppContext) {
  const routes = traders.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/statements",
    {
      schema: {
        tags: ["statements"],
        summary:
          "Your statement for a period (from/to, YYYY-MM-DD, UTC, both included, at most 5 years): opening and closing balance and every movement, as CSV or PDF",
        security: bearerSecurity,
        querystring: statementQuerySchema,
        response: fileReplySchema,
      },
    },
    async (request, reply) => {
      const now = context.clock.now();
      const period = periodOf(request.query, now);
      const { userId } = sessionOf(request);
      // Counted once the request is valid: a refused period builds nothing.
      context.rateLimiter.consume(rateRules.downloadsPerAccount, String(userId));
      const { format, account } = request.query;
      const statement = await traderStatement(context.database, userId, account, period).catch(
        (error: unknown) => {
          if (error instanceof StatementTooLongError) {
            throw validationError({ to: [statementMessages.statementTooLong] });
          }
          throw error;
        },
      );
      const fileName = statementFileName(`statement-${account}`, period, format);
      if (format === "csv") {
        return sendAttachment(reply, "text/csv; charset=utf-8", fileName, statementCsv(statement));
      }
      const user = (await findUserById(context.database, userId))!;
      const pdf = await statementPdf(statement, {
        companyName: context.siteContent.company.name,
        traderName: `${user.first_name} ${user.last_name}`,
        traderEmail: user.email,
        generatedAt: now,
      });
      return sendAttachment(reply, "application/pdf", fileName, pdf);
    },
  );

  routes.get(
    "/statements/data-export",
    {
      schema: {
        tags: ["statements"],
        summary:
          "All your data as one JSON file: profile, sessions, sign-in history, trades with their audit, ledger lines, deposits, withdrawals, documents' metadata, notifications, referrals",
        security: bearerSecurity,
        response: fileReplySchema,
      },
    },
    async (request, reply) => {
      const now = context.clock.now();
      context.rateLimiter.consume(rateRules.downloadsPerAccount, String(sessionOf(request).userId));
      const data = await traderDataExport(
        context.database,
        context.marketData.store,
        sessionOf(request).userId,
        now,
      ).catch((error: unknown) => {
        if (error instanceof DataExportTooLargeError) {
          throw validationError({}, statementMessages.dataExportTooLarge);
        }
        throw error;
      });
      const fileName = `my-data-${now.toISOString().slice(0, 10)}.json`;
      return sendAttachment(
        reply,
        "application/json; charset=utf-8",
        fileName,
        JSON.stringify(data, null, 2),
      );
    },
  );
}

/** Staff exports for auditors (in the staff scope, under /admin): reads, so support may. */
export async function staffExportRoutes(staff: FastifyInstance, context: AppContext) {
  const routes = staff.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/exports/:kind",
    {
      config: leastStaffRole.support,
      schema: {
        tags: staffTags,
        summary:
          "CSV for auditors of deposits, withdrawals (by creation), the ledger (one row per posting) or trades (by start) in a period (from/to, YYYY-MM-DD, UTC, both included, at most 5 years)",
        security: bearerSecurity,
        params: staffExportParamsSchema,
        querystring: staffExportQuerySchema,
        response: fileReplySchema,
      },
    },
    async (request, reply) => {
      const now = context.clock.now();
      const period = periodOf(request.query, now);
      context.rateLimiter.consume(rateRules.downloadsPerAccount, String(sessionOf(request).userId));
      const { kind } = request.params;
      let built: StaffExport;
      try {
        built = await staffExportCsv(context.database, kind, period);
      } catch (error) {
        if (error instanceof ExportTooLargeError) {
          throw validationError({ to: [statementMessages.exportTooLarge] });
        }
        throw error;
      }
      // Data leaving the platform is a staff act like any other (PRODUCT.md D7): recorded
      // before the file is sent, so no export goes out without its line in the log.
      const fileName = statementFileName(kind, period, "csv");
      await recordAudit(context.database, {
        actor: await staffActorOf(context, request),
        action: "export.downloaded",
        targetType: "export",
        targetId: kind,
        before: null,
        after: {
          kind,
          from: period.fromText,
          to: period.toText,
          row_count: built.rowCount,
          file_name: fileName,
        },
        at: now,
      });
      return sendAttachment(reply, "text/csv; charset=utf-8", fileName, built.csv);
    },
  );
}
