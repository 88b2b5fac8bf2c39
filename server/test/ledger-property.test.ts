import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traderBalances } from "../src/ledger/ledger.ts";
import { topUpPracticeBalance } from "../src/ledger/practice-balance.ts";
import { startTestPlatform, type TestPlatform } from "../src/testing/test-platform.ts";
import { placeTrade } from "../src/trading/place-trade.ts";
import { signedInTrader } from "./support/accounts.ts";
import { advanceWithTick } from "./support/prices.ts";

type Command =
  | { kind: "place"; amountCents: number; type: "call" | "put"; duration: 30 | 60 }
  | { kind: "move"; priceStep: number; ms: number }
  | { kind: "settle" }
  | { kind: "top-up" };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant("place" as const),
    amountCents: fc.integer({ min: 100, max: 400_000 }),
    type: fc.constantFrom("call" as const, "put" as const),
    duration: fc.constantFrom(30 as const, 60 as const),
  }),
  fc.record({
    kind: fc.constant("move" as const),
    priceStep: fc.integer({ min: -3, max: 3 }),
    ms: fc.integer({ min: 250, max: 40_000 }),
  }),
  fc.constant({ kind: "settle" as const }),
  fc.constant({ kind: "top-up" as const }),
);

// Random sequences of place, price moves, settle and top-up: after every step the ledger's
// invariants hold and no balance is negative, whatever wins, loses, ties or is refused.
describe("ledger invariants under random trading", () => {
  let platform: TestPlatform;
  let price = 1.1;

  beforeAll(async () => {
    platform = await startTestPlatform("pglite");
    await advanceWithTick(platform, "EURUSD", price, 0);
  });
  afterAll(async () => platform?.close());

  it("holds for every sequence", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        const trader = await signedInTrader(platform);
        const userId = trader.user.id as number;
        for (const step of commands) {
          if (step.kind === "place") {
            await placeTrade(
              platform.context,
              userId,
              {
                asset: "EURUSD",
                amount: step.amountCents / 100,
                duration: step.duration,
                type: step.type,
                is_practice: true,
              },
              null,
            ).catch((error: { code?: string }) => {
              // Only the expected refusal may happen: not enough money.
              if (error.code !== "INSUFFICIENT_FUNDS") throw error;
            });
          } else if (step.kind === "move") {
            price = Math.max(
              0.5,
              Math.round((price + step.priceStep / 10_000) * 100_000) / 100_000,
            );
            await advanceWithTick(platform, "EURUSD", price, step.ms);
          } else if (step.kind === "settle") {
            await platform.context.settlement.settleDue();
          } else {
            await platform.database.transaction((transaction) =>
              topUpPracticeBalance(transaction, userId, 10_000_00, platform.clock.now()),
            );
          }
          const balances = await traderBalances(platform.database, userId);
          expect(balances.practice_cents).toBeGreaterThanOrEqual(0);
          expect(await platform.ledgerViolations()).toEqual([]);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
