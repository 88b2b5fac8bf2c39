import {
  type ExclusionKind,
  excludedMessage,
  type MoneyLimitKind,
  moneyLimitReachedMessage,
  openTradesLimitReachedMessage,
  sessionLimitReachedMessage,
} from "@tp/domain/trader-limits";
import { AppError } from "../http/errors.ts";

/**
 * Why a trader's own limit or exclusion refused a trade, as `trade_guard_refusals`
 * (server/sql/functions/030_trading.sql) returns it inside place_trades' statement.
 */
export type TradeGuard =
  | { code: "excluded"; kind: ExclusionKind; ends_at: string | null }
  | { code: "limit"; kind: MoneyLimitKind; limit_cents: number; used_cents: number }
  | { code: "open_trades"; limit: number }
  | { code: "session"; limit: number };

/** The refusal in the trader's words (domain/src/trader-limits.ts). */
export function tradeGuardError(guard: TradeGuard): AppError {
  switch (guard.code) {
    case "excluded":
      return new AppError(
        "EXCLUDED",
        excludedMessage(
          guard.kind,
          guard.ends_at === null ? null : new Date(guard.ends_at).toISOString(),
        ),
      );
    case "limit":
      return new AppError(
        "LIMIT_REACHED",
        moneyLimitReachedMessage(guard.kind, Number(guard.limit_cents), Number(guard.used_cents)),
      );
    case "open_trades":
      return new AppError("LIMIT_REACHED", openTradesLimitReachedMessage(Number(guard.limit)));
    case "session":
      return new AppError("LIMIT_REACHED", sessionLimitReachedMessage(Number(guard.limit)));
  }
}
