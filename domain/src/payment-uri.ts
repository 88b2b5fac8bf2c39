import type { PaymentMethodId } from "./funding.ts";

/**
 * What the crypto deposit step needs to know about each coin (issue 13 item 4): its ticker,
 * the network it must be sent on, the URI scheme wallets understand in a QR code, and the
 * catalogue symbol whose live price converts dollars into it. A method without an entry
 * (the e-wallet) gets no URI and no warning; USDT travels on several networks and the
 * method does not say which, so its QR code holds the address alone and its warning points
 * at the staff's instructions.
 */
export interface CoinNetwork {
  coin: string;
  /** The network's name in the warning, or null when the method does not fix it. */
  network: string | null;
  /** BIP-21 style scheme (`bitcoin:`), or null when none is safe to assume. */
  scheme: "bitcoin" | "litecoin" | "bitcoincash" | "ethereum" | null;
  /** The catalogue symbol priced in USDT (BTCUSD is the spec's Bitcoin Cash, from BCHUSDT). */
  price_symbol: string | null;
  /** Decimal places the amount in the coin is given with (rounded up: never underpaid). */
  decimals: number;
}

export const coinNetworks: Partial<Record<PaymentMethodId, CoinNetwork>> = {
  bitcoin: {
    coin: "BTC",
    network: "Bitcoin",
    scheme: "bitcoin",
    price_symbol: "BTCUSDT",
    decimals: 8,
  },
  litecoin: {
    coin: "LTC",
    network: "Litecoin",
    scheme: "litecoin",
    price_symbol: "LTCUSDT",
    decimals: 8,
  },
  "bitcoin-cash": {
    coin: "BCH",
    network: "Bitcoin Cash",
    scheme: "bitcoincash",
    price_symbol: "BTCUSD",
    decimals: 8,
  },
  ethereum: {
    coin: "ETH",
    network: "Ethereum",
    scheme: "ethereum",
    price_symbol: "ETHUSDT",
    decimals: 8,
  },
  usdt: { coin: "USDT", network: null, scheme: null, price_symbol: null, decimals: 2 },
};

export function coinNetworkOf(methodId: string): CoinNetwork | null {
  return coinNetworks[methodId as PaymentMethodId] ?? null;
}

/** "Send only BTC on the Bitcoin network; anything else is lost." */
export function networkWarning(network: CoinNetwork): string {
  return network.network
    ? `Send only ${network.coin} on the ${network.network} network; anything else is lost.`
    : `Send only ${network.coin} on the network named in the instructions; anything else is lost.`;
}

/**
 * The amount in the coin for `amountCents` dollars at `pricePerCoin` (USDT per coin), as a
 * plain decimal string with the coin's decimals, rounded up so the payment never falls
 * short; null when the price is not a positive finite number.
 */
export function coinAmount(
  amountCents: number,
  pricePerCoin: number,
  decimals: number,
): string | null {
  if (!Number.isFinite(pricePerCoin) || pricePerCoin <= 0 || !Number.isFinite(amountCents)) {
    return null;
  }
  const scale = 10 ** decimals;
  // cents / 100 / price, in units of 10^-decimals; the small epsilon keeps an exact
  // quotient (e.g. $100 at 50,000) from rounding up by one unit through float noise.
  const units = Math.ceil((amountCents / 100 / pricePerCoin) * scale - 1e-6);
  if (!Number.isSafeInteger(units) || units <= 0) return null;
  const digits = String(units).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return decimals > 0 ? `${whole}.${fraction}` : whole;
}

/** A decimal string without trailing zeros after the point ("0.00230000" → "0.0023"). */
function trimDecimal(amount: string): string {
  return amount.includes(".") ? amount.replace(/\.?0+$/, "") : amount;
}

/** Wei (10^-18 ETH) of a decimal ETH amount, as an integer string (EIP-681 `value`). */
function weiOf(amount: string): string {
  const [whole = "0", fraction = ""] = amount.split(".");
  const wei = `${whole}${fraction.padEnd(18, "0").slice(0, 18)}`.replace(/^0+/, "");
  return wei.length > 0 ? wei : "0";
}

/**
 * The payment URI a wallet reads from the QR code: BIP-21 `bitcoin:ADDRESS?amount=0.0023`
 * and its equivalents (`litecoin:`, `bitcoincash:`), EIP-681 `ethereum:ADDRESS?value=WEI`.
 * Without an amount (no live price) it carries the address only; a coin without a safe
 * scheme (USDT, the e-wallet) gets the bare address.
 */
export function paymentUri(methodId: string, address: string, amount: string | null): string {
  const network = coinNetworkOf(methodId);
  const trimmed = address.trim();
  if (!network?.scheme) return trimmed;
  // A cash address may already carry its prefix ("bitcoincash:q…"): never write it twice.
  const prefix = `${network.scheme}:`;
  const bare = trimmed.toLowerCase().startsWith(prefix) ? trimmed.slice(prefix.length) : trimmed;
  const target = `${prefix}${encodeURIComponent(bare)}`;
  if (amount === null || !/^\d+(\.\d+)?$/.test(amount) || Number(amount) <= 0) return target;
  return network.scheme === "ethereum"
    ? `${target}?value=${weiOf(amount)}`
    : `${target}?amount=${trimDecimal(amount)}`;
}
