import path from "node:path";
import { emailPattern, passwordPattern } from "@tp/domain/validation";
import { z } from "zod";
import { feedConfigShape, refineFeedConfig } from "./feeds/feed-config.ts";
import { marketInfoConfigShape } from "./market-info/market-info-config.ts";
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
        (value) => passwordPattern.test(value) && value.length <= 128,
        "must be 8-128 letters and digits with a lowercase, an uppercase and a digit",
      )
      .optional(),
    /** Withdrawals need a verified e-mail (PRODUCT.md D11). */
    REQUIRE_VERIFIED_EMAIL_FOR_WITHDRAWAL: booleanFlag.default(true),
    /** Withdrawals need approved identity documents (PRODUCT.md D11). */
    REQUIRE_KYC_FOR_WITHDRAWAL: booleanFlag.default(true),
    /** Price feeds: which source prices each asset, and each source's settings. */
    ...feedConfigShape,
    /** Blockchain stats, crypto news and crypto market data providers (market-info/). */
    ...marketInfoConfigShape,
    /** The "New Transaction" toast's feed of real recent transactions (PRODUCT.md D5). */
    ACTIVITY_TOAST_ENABLED: booleanFlag.default(true),
    /** Web Push: VAPID keys and subject, loopback endpoints for tests (push/push-config.ts). */
    ...pushConfigShape,
  })
  .superRefine(refineFeedConfig)
  .superRefine(refinePushConfig);

export type RawConfig = z.infer<typeof configSchema>;

export interface Config
  extends Omit<RawConfig, "PRACTICE_BALANCE_DOLLARS" | "TRADE_AMOUNT_MAX_DOLLARS" | "PUBLIC_URL"> {
  PUBLIC_URL: string;
  practice_balance_cents: number;
  trade_amount_cents_max: number;
}

export class ConfigError extends Error {}

/** Parse the environment; throws ConfigError naming every bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as in most shells' `VAR= command`.
  const defined = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ""),
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
