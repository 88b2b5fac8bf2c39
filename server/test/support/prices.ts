import type { FeedSource } from "../../src/feeds/tick.ts";
import type { TestPlatform } from "../../src/testing/test-platform.ts";

/**
 * Feeds one tick through the platform's real ingestion path (throttle, bus, price store,
 * recorder) and waits for the bus to deliver it. Ticks of one symbol must be >= 250 ms apart.
 */
export async function pushTick(
  platform: TestPlatform,
  symbol: string,
  price: number,
  atMs = platform.clock.now().getTime(),
  source: FeedSource = "simulated",
) {
  platform.context.marketData.offer({ symbol, price, at: atMs, source });
  await new Promise((resolve) => setImmediate(resolve));
}

/** Advances the manual clock and pushes a tick stamped at the new time. */
export async function advanceWithTick(
  platform: TestPlatform,
  symbol: string,
  price: number,
  ms: number,
) {
  platform.clock.advance(ms);
  await pushTick(platform, symbol, price);
}
