import path from "node:path";
import {
  default_restricted_country_codes,
  parseRestrictedCountryCodes,
} from "@tp/domain/restricted-countries";
import { emailPattern, passwordRuleMessage } from "@tp/domain/validation";
import { z } from "zod";
import { feedConfigShape, refineFeedConfig } from "./feeds/feed-config.ts";
import { marketInfoConfigShape } from "./market-info/market-info-config.ts";
import { price_history_hours_default } from "./prices/history-backfill.ts";
import { pushConfigShape, refinePushConfig } from "./push/push-config.ts";

/**
 * Every setting the server reads, parsed once at start by this one schema. A bad value
 * stops the server with a message naming the variable (see `loadConfig`). The README's
 * configuration table lists the same variables; keep the two together.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1");

const dollars = z.coerce
  .number({ error: "must be a number of dollars" })
  .positive("must be above 0")
  .refine((value) => Number.isSafeInteger(Math.round(value * 100)), "is too large")
  .refine(
    (value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
    "has more than 2 decimals",
  );

const postgresUrl = z
  .string()
  .refine(
    (value) => /^postgres(ql)?:\/\//.test(value),
    "must start with postgres:// or postgresql://",
  );

const sessionIdleMinutes = z.coerce
  .number({ error: "must be a whole number of minutes" })
  .int("must be a whole number of minutes")
  .min(1, "must be at least 1 minute")
  .max(30 * 24 * 60, "must be at most 43200 (30 days)");

const sessionAbsoluteHours = z.coerce
  .number({ error: "must be a whole number of hours" })
  .int("must be a whole number of hours")
  .min(1, "must be at least 1 hour")
  .max(365 * 24, "must be at most 8760 (a year)");

/**
 * The readiness delay is part of the shutdown's time: one as long as the whole would leave
 * none to finish the in-flight requests.
 */
function refineShutdown(
  config: { SHUTDOWN_READINESS_DELAY_MS: number; SHUTDOWN_TIMEOUT_MS: number },
  context: z.RefinementCtx,
) {
  if (config.SHUTDOWN_READINESS_DELAY_MS >= config.SHUTDOWN_TIMEOUT_MS) {
    context.addIssue({
      code: "custom",
      path: ["SHUTDOWN_READINESS_DELAY_MS"],
      message: "must be less than SHUTDOWN_TIMEOUT_MS",
    });
  }
}

/** An idle time longer than the absolute one would never apply: a sign of a typo. */
function refineSessionLifetimes(
  config: {
    TRADER_SESSION_IDLE_MINUTES: number;
    TRADER_SESSION_ABSOLUTE_HOURS: number;
    STAFF_SESSION_IDLE_MINUTES: number;
    STAFF_SESSION_ABSOLUTE_HOURS: number;
  },
  context: z.RefinementCtx,
) {
  for (const role of ["TRADER", "STAFF"] as const) {
    if (config[`${role}_SESSION_IDLE_MINUTES`] > config[`${role}_SESSION_ABSOLUTE_HOURS`] * 60) {
      context.addIssue({
        code: "custom",
        path: [`${role}_SESSION_IDLE_MINUTES`],
        message: `must not exceed ${role}_SESSION_ABSOLUTE_HOURS`,
      });
    }
  }
}

export const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    PUBLIC_URL: z
      .url({ error: "must be an absolute URL such as http://localhost:3000" })
      .optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: postgresUrl.optional(),
    REDIS_URL: z
      .string()
      .refine((value) => /^rediss?:\/\//.test(value), "must start with redis:// or rediss://")
      .optional(),
    SMTP_URL: z
      .string()
      .refine((value) => /^smtps?:\/\//.test(value), "must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default("TradePlatform <no-reply@localhost>"),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    RATE_LIMIT_FACTOR: z.coerce.number().min(0).max(1000).default(1),
    PRACTICE_BALANCE_DOLLARS: dollars.default(10_000),
    CONTENT_DIR: z.string().min(1).default("./content"),
    WEB_DIST_DIR: z.string().min(1).default("./web/dist"),
    /** Largest stake of one trade (PRODUCT.md D11: min 1 USD, max configurable). */
    TRADE_AMOUNT_MAX_DOLLARS: dollars.default(10_000),
    /**
     * Development only: let real-account trades run on simulated prices (PRODUCT.md D2). Every
     * page then shows a banner saying so.
     */
    ALLOW_REAL_TRADING_ON_SIMULATED_PRICES: booleanFlag.default(false),
    /** Behind a load balancer, trust X-Forwarded-For so rate limits see the client's address. */
    TRUST_PROXY: booleanFlag.default(false),
    /**
     * On SIGTERM the process answers GET /ready with 503 at once and keeps serving this long
     * before it stops taking connections, so a load balancer's health check (every 1-2 s)
     * has noticed and sends nothing new by then.
     */
    SHUTDOWN_READINESS_DELAY_MS: z.coerce
      .number({ error: "must be a whole number of milliseconds" })
      .int("must be a whole number of milliseconds")
      .min(0, "must be 0 or more")
      .max(60_000, "must be at most 60000")
      .default(2_000),
    /**
     * The whole shutdown's bound (readiness delay included): past it the process exits 1
     * whatever is still running. A supervisor's own stop timeout should be longer.
     */
    SHUTDOWN_TIMEOUT_MS: z.coerce
      .number({ error: "must be a whole number of milliseconds" })
      .int("must be a whole number of milliseconds")
      .min(1_000, "must be at least 1000")
      .max(300_000, "must be at most 300000")
      .default(10_000),
    /**
     * The first admin, created on a start that finds no admin (PRODUCT.md D7): ADMIN_EMAIL
     * (default admin@example.com) and ADMIN_PASSWORD; without a password a one-time password
     * is generated and printed once. `npm run admin -- create` also reads ADMIN_PASSWORD.
     */
    ADMIN_EMAIL: z
      .string()
      .trim()
      .toLowerCase()
      .refine((value) => emailPattern.test(value), "must be an e-mail address")
      .optional(),
    ADMIN_PASSWORD: z
      .string()
      .refine(
        (value) => passwordRuleMessage(value) === null,
        "must be 8-128 characters with a lowercase, an uppercase and a digit",
      )
      .optional(),
    /**
     * Signs the ALTCHA proof-of-work challenges that stand in for a lockout (auth/proof-of-work.ts).
     * Unset: generated on first start into DATA_DIR/altcha-hmac-key.
     */
    ALTCHA_HMAC_KEY: z.string().min(32, "must be at least 32 characters").optional(),
    /**
     * The Ed25519 private key (PKCS #8 PEM; "\n" may stand for line breaks) that signs trade
     * receipts (receipts/receipt-signing-key.ts). Unset: generated on first start into
     * DATA_DIR/receipt-signing-key.pem. Every key that ever signed stays published.
     */
    RECEIPT_SIGNING_KEY: z.string().min(1).optional(),
    /** Withdrawals need a verified e-mail (PRODUCT.md D11). */
    REQUIRE_VERIFIED_EMAIL_FOR_WITHDRAWAL: booleanFlag.default(true),
    /** Withdrawals need approved identity documents (PRODUCT.md D11). */
    REQUIRE_KYC_FOR_WITHDRAWAL: booleanFlag.default(true),
    /**
     * Four eyes (issue 12 item 8): a deposit or withdrawal above this needs approvals from
     * two different reviewers before money moves.
     */
    FOUR_EYES_THRESHOLD_DOLLARS: dollars.default(1_000),
    /**
     * Hours a withdrawal's e-mailed confirmation link works (issue 12); unconfirmed by then,
     * the withdrawal is cancelled and its hold released, so no money is trapped.
     */
    WITHDRAWAL_CONFIRMATION_HOURS: z.coerce.number().int().min(1).max(168).default(24),
    /**
     * Hours a deposit opened by "Fund Account" waits for its payment proof (issue 13); then
     * it expires, the trader is told, and its place under the cap of open deposits is free.
     */
    DEPOSIT_PAYMENT_WINDOW_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /** Price feeds: which source prices each asset, and each source's settings. */
    ...feedConfigShape,
    /**
     * How many hours of price history the start fills in when they are missing (issue 11:
     * history from the first minute): the simulator's own past, a provider's history API.
     * 0 turns the backfill off.
     */
    PRICE_HISTORY_HOURS: z.coerce
      .number({ error: "must be a whole number of hours" })
      .int("must be a whole number of hours")
      .min(0, "must be 0 (no backfill) or more")
      .max(720, "must be at most 720 (30 days)")
      .default(price_history_hours_default),
    /** Blockchain stats, crypto news and crypto market data providers (market-info/). */
    ...marketInfoConfigShape,
    /** The "New Transaction" toast's feed of real recent transactions (PRODUCT.md D5). */
    ACTIVITY_TOAST_ENABLED: booleanFlag.default(true),
    /** Web Push: VAPID keys and subject, loopback endpoints for tests (push/push-config.ts). */
    ...pushConfigShape,
    /**
     * Session lifetimes per role (issue 12, item 5; auth/sessions.ts): unused for the idle
     * time, or past the absolute time after sign-in, a session is over. Staff sessions are
     * short because a staff token can move other people's money.
     */
    TRADER_SESSION_IDLE_MINUTES: sessionIdleMinutes.default(24 * 60),
    TRADER_SESSION_ABSOLUTE_HOURS: sessionAbsoluteHours.default(30 * 24),
    STAFF_SESSION_IDLE_MINUTES: sessionIdleMinutes.default(30),
    STAFF_SESSION_ABSOLUTE_HOURS: sessionAbsoluteHours.default(12),
    /**
     * The risk warning states the share of real-money accounts that lost money trading in
     * the last 12 months (issue 14 item 5) only when at least this many accounts traded;
     * below it, it says there is not yet enough data.
     */
    LOSING_ACCOUNTS_MIN_ACCOUNTS: z.coerce
      .number({ error: "must be a whole number of accounts" })
      .int("must be a whole number of accounts")
      .min(1, "must be at least 1")
      .max(1_000_000, "must be at most 1000000")
      .default(100),
    /**
     * A closed account's identity, KYC documents and financial records are kept this many
     * years for record keeping (FATF recommendation 11: at least five), then its personal
     * data is erased (issue 14 item 7).
     */
    RECORD_RETENTION_YEARS: z.coerce
      .number({ error: "must be a whole number of years" })
      .int("must be a whole number of years")
      .min(5, "must be at least 5 (anti-money-laundering record keeping)")
      .max(30, "must be at most 30")
      .default(5),
    /**
     * Restricted countries (issue 14 item 4): ISO 3166-1 alpha-2 codes, comma-separated, of
     * the sign-up list's countries where retail binary options are banned. Sign-up from them
     * is refused; residents' real-money deposits and trades are refused. Unset: the default
     * list (domain/src/restricted-countries.ts, the README says why each); empty: none.
     */
    RESTRICTED_COUNTRIES: z
      .string()
      .transform((text, context) => {
        const result = parseRestrictedCountryCodes(text);
        if (result.ok) return result.countries;
        context.addIssue({
          code: "custom",
          message: `unknown country code${result.unknown.length > 1 ? "s" : ""} ${result.unknown.join(", ")}: use the ISO 3166-1 alpha-2 codes of the sign-up list's countries, comma-separated (e.g. FR,DE,GB), or an empty value for none`,
        });
        return z.NEVER;
      })
      .prefault(default_restricted_country_codes.join(",")),
  })
  .superRefine(refineFeedConfig)
  .superRefine(refinePushConfig)
  .superRefine(refineSessionLifetimes)
  .superRefine(refineShutdown);

export type RawConfig = z.infer<typeof configSchema>;

export interface Config
  extends Omit<RawConfig, "PRACTICE_BALANCE_DOLLARS" | "TRADE_AMOUNT_MAX_DOLLARS" | "PUBLIC_URL"> {
  PUBLIC_URL: string;
  practice_balance_cents: number;
  trade_amount_cents_max: number;
}

export class ConfigError extends Error {}

/** Settings where an empty value is kept (it means an empty list), not read as unset. */
const emptyMeansNone: ReadonlySet<string> = new Set(["RESTRICTED_COUNTRIES"]);

/** Parse the environment; throws ConfigError naming every bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as in most shells' `VAR= command`; but for a list whose
  // default is not empty, empty is how the operator says "none".
  const defined = Object.fromEntries(
    Object.entries(environment).filter(
      ([name, value]) => value !== undefined && (value !== "" || emptyMeansNone.has(name)),
    ),
  );
  const result = configSchema.safeParse(defined);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) =>
        `${issue.path.join(".")}: ${issue.message} (got ${JSON.stringify(defined[String(issue.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const raw = result.data;
  const { PRACTICE_BALANCE_DOLLARS, TRADE_AMOUNT_MAX_DOLLARS, PUBLIC_URL, ...rest } = raw;
  return {
    ...rest,
    DATA_DIR: path.resolve(raw.DATA_DIR),
    CONTENT_DIR: path.resolve(raw.CONTENT_DIR),
    WEB_DIST_DIR: path.resolve(raw.WEB_DIST_DIR),
    PUBLIC_URL: (PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    practice_balance_cents: Math.round(PRACTICE_BALANCE_DOLLARS * 100),
    trade_amount_cents_max: Math.round(TRADE_AMOUNT_MAX_DOLLARS * 100),
  };
}
