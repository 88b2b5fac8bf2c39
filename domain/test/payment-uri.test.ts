import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coinAmount, coinNetworks, networkWarning, paymentUri } from "../src/payment-uri.ts";

const btcAddress = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const ethAddress = "0x52908400098527886E0F7030069857D2E4169EE7";

describe("payment URI builder", () => {
  it("writes BIP-21 with the amount for Bitcoin and its relatives, EIP-681 in wei for Ether", () => {
    expect(paymentUri("bitcoin", btcAddress, "0.00230770")).toBe(
      `bitcoin:${btcAddress}?amount=0.0023077`,
    );
    expect(paymentUri("litecoin", "ltc1qg82j2q7x0n3a6", "1.50000000")).toBe(
      "litecoin:ltc1qg82j2q7x0n3a6?amount=1.5",
    );
    expect(paymentUri("ethereum", ethAddress, "0.05000001")).toBe(
      `ethereum:${ethAddress}?value=50000010000000000`,
    );
    expect(paymentUri("ethereum", ethAddress, "2.00000000")).toBe(
      `ethereum:${ethAddress}?value=2000000000000000000`,
    );
  });

  it("carries the address only without a live price, and never doubles a cash-address prefix", () => {
    expect(paymentUri("bitcoin", btcAddress, null)).toBe(`bitcoin:${btcAddress}`);
    expect(paymentUri("ethereum", ethAddress, null)).toBe(`ethereum:${ethAddress}`);
    expect(
      paymentUri("bitcoin-cash", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", "0.1"),
    ).toBe("bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a?amount=0.1");
    expect(paymentUri("bitcoin-cash", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", null)).toBe(
      "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a",
    );
  });

  it("gives the bare address where no scheme is safe (USDT's network is not fixed, the e-wallet)", () => {
    expect(paymentUri("usdt", "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", "150.00")).toBe(
      "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
    );
    expect(paymentUri("perfect-money", "U1234567", null)).toBe("U1234567");
  });

  it("refuses an amount that is not a plain positive decimal", () => {
    for (const bad of ["", "-1", "0", "1e-3", "0.1&label=x", "NaN"]) {
      expect(paymentUri("bitcoin", btcAddress, bad)).toBe(`bitcoin:${btcAddress}`);
    }
  });
});

describe("amount in the coin", () => {
  it("divides dollars by the price and rounds up to the coin's decimals", () => {
    expect(coinAmount(150_00, 65_000, 8)).toBe("0.00230770");
    expect(coinAmount(100_00, 50_000, 8)).toBe("0.00200000");
    expect(coinAmount(1_00, 3, 8)).toBe("0.33333334");
    expect(coinAmount(250_000_00, 2.5, 8)).toBe("100000.00000000");
  });

  it("says nothing for a price that is no price", () => {
    expect(coinAmount(150_00, 0, 8)).toBeNull();
    expect(coinAmount(150_00, -5, 8)).toBeNull();
    expect(coinAmount(150_00, Number.NaN, 8)).toBeNull();
    expect(coinAmount(150_00, Number.POSITIVE_INFINITY, 8)).toBeNull();
  });

  it("never asks for less than the dollar amount is worth", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 100_000_000 }),
        fc.double({ min: 1, max: 200_000, noNaN: true }),
        (cents, price) => {
          const amount = coinAmount(cents, price, 8);
          expect(amount).not.toBeNull();
          // Worth at least the dollars, and at most one unit more.
          const value = Number(amount) * price * 100;
          expect(value).toBeGreaterThanOrEqual(cents - 1e-6 * price * 100);
          expect(Number(amount) - cents / 100 / price).toBeLessThanOrEqual(1e-8 + 1e-12);
        },
      ),
    );
  });
});

describe("network warning", () => {
  it("names the coin and its network, or points at the instructions when the method does not fix it", () => {
    expect(networkWarning(coinNetworks.bitcoin!)).toBe(
      "Send only BTC on the Bitcoin network; anything else is lost.",
    );
    expect(networkWarning(coinNetworks.ethereum!)).toBe(
      "Send only ETH on the Ethereum network; anything else is lost.",
    );
    expect(networkWarning(coinNetworks.usdt!)).toBe(
      "Send only USDT on the network named in the instructions; anything else is lost.",
    );
  });
});
