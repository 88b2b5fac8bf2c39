/**
 * What can be traded (SPEC §3 "Asset catalogue by option type", §4 "Chart", §9): the five
 * option types, their 40 assets, display names, chart prefixes and price precision; the
 * payout table and the expiration options.
 */

export const optionTypes = ["commodities", "crypto", "forex", "stocks", "indices"] as const;
export type OptionType = (typeof optionTypes)[number];

/** SPEC §9: the trade form opens on commodities. */
export const DEFAULT_OPTION_TYPE: OptionType = "commodities";
/** SPEC §4: the chart opens on EURUSD. */
export const DEFAULT_CHART_SYMBOL = "EURUSD";

export const optionTypeLabels: Record<OptionType, string> = {
  commodities: "Commodities",
  crypto: "Crypto",
  forex: "Forex",
  stocks: "Stocks",
  indices: "Indices",
};

export interface Asset {
  symbol: string;
  name: string;
  optionType: OptionType;
  /** Decimal places a price of this asset is quoted with. */
  precision: number;
}

function assets(
  optionType: OptionType,
  precision: number | ((symbol: string) => number),
  list: Array<[string, string]>,
): Asset[] {
  return list.map(([symbol, name]) => ({
    symbol,
    name,
    optionType,
    precision: typeof precision === "number" ? precision : precision(symbol),
  }));
}

export const assetCatalogue: readonly Asset[] = [
  ...assets("commodities", 3, [
    ["XAUUSD", "Gold"],
    ["XAGUSD", "Silver"],
    ["BCOUSD", "Crude Oil Brent"],
    ["WTICOUSD", "Crude Oil WTI"],
    ["NGASUSD", "Natural Gas"],
    ["CORNUSD", "Corn"],
    ["WHEATUSD", "Wheat"],
    ["XCUUSD", "Copper"],
  ]),
  ...assets("crypto", 4, [
    ["BTCUSDT", "Bitcoin"],
    // SPEC §3 labels BTCUSD "Bitcoin Cash"; kept as written.
    ["BTCUSD", "Bitcoin Cash"],
    ["ETHUSDT", "Ethereum"],
    ["LTCUSDT", "Litecoin"],
    ["BNBUSDT", "BNB"],
    ["XRPUSDT", "XRP"],
    ["ADAUSDT", "Cardano"],
    ["DOGEUSDT", "Dogecoin"],
  ]),
  // JPY pairs are quoted with 3 decimals, the others with 5.
  ...assets("forex", (symbol) => (symbol.endsWith("JPY") ? 3 : 5), [
    ["AUDCAD", "AUD/CAD"],
    ["AUDJPY", "AUD/JPY"],
    ["EURUSD", "EUR/USD"],
    ["EURGBP", "EUR/GBP"],
    ["EURJPY", "EUR/JPY"],
    ["GBPUSD", "GBP/USD"],
    ["GBPJPY", "GBP/JPY"],
    ["USDJPY", "USD/JPY"],
  ]),
  ...assets("stocks", 2, [
    ["AAPL", "Apple"],
    ["MSFT", "Microsoft"],
    ["GOOGL", "Alphabet"],
    ["AMZN", "Amazon"],
    ["TSLA", "Tesla"],
    ["NVDA", "NVIDIA"],
    ["NFLX", "Netflix"],
    ["DIS", "Disney"],
  ]),
  ...assets("indices", 2, [
    ["DE30", "Germany 30"],
    ["FR40", "France 40"],
    ["HK50", "Hong Kong 50"],
    ["JP225", "Japan 225"],
    ["UK100", "UK 100"],
    ["US500", "US 500"],
    ["US30", "US 30"],
    ["US100", "US Tech 100"],
  ]),
];

const assetsBySymbol: ReadonlyMap<string, Asset> = new Map(
  assetCatalogue.map((asset) => [asset.symbol, asset]),
);

export function findAsset(symbol: string): Asset | undefined {
  return assetsBySymbol.get(symbol);
}

export function assetsOfType(optionType: OptionType): Asset[] {
  return assetCatalogue.filter((asset) => asset.optionType === optionType);
}

/** SPEC §4 "Chart": crypto BINANCE:, stocks NASDAQ:, commodities OANDA:, forex and indices none. */
export const chartPrefixes: Record<OptionType, string> = {
  crypto: "BINANCE:",
  stocks: "NASDAQ:",
  commodities: "OANDA:",
  forex: "",
  indices: "",
};

/** Price sources that are a real market's data: Binance directly, or relayed by Finnhub. */
const providerSources: ReadonlySet<string> = new Set(["binance", "finnhub"]);

/**
 * The chart's title for an asset priced by `source` (issue 11, honest labels). The spec's
 * prefix names the venue a price came from (Binance, OANDA's quotes and US exchanges are
 * what the real feeds carry), so it is shown only when the price comes from a real
 * provider: simulated prices, or no price yet, never carry a venue's name.
 */
export function chartSymbol(asset: Asset, source: string | null | undefined): string {
  const prefix = source && providerSources.has(source) ? chartPrefixes[asset.optionType] : "";
  return `${prefix}${asset.symbol}`;
}

/** Rounds a price to the asset's quoted precision (prices are compared exactly after this). */
export function roundPrice(asset: Asset, price: number): number {
  const scale = 10 ** asset.precision;
  return Math.round(price * scale) / scale;
}

/** SPEC §9: expiration options in seconds, with their labels and payout percentages. */
export const expirations = [
  { seconds: 30, label: "30 Seconds", payoutPercent: 85 },
  { seconds: 60, label: "1 Minute", payoutPercent: 80 },
  { seconds: 300, label: "5 Minutes", payoutPercent: 75 },
  { seconds: 900, label: "15 Minutes", payoutPercent: 70 },
  { seconds: 1800, label: "30 Minutes", payoutPercent: 65 },
  { seconds: 3600, label: "1 Hour", payoutPercent: 60 },
] as const;

export type ExpirationSeconds = (typeof expirations)[number]["seconds"];

export function findExpiration(seconds: number) {
  return expirations.find((expiration) => expiration.seconds === seconds);
}

/**
 * SPEC §9: potential profit = amount × percentage / 100, in cents, rounded down so the
 * platform never promises a fraction of a cent it would then have to invent.
 */
export function potentialProfitCents(stakeCents: number, payoutPercent: number): number {
  return Math.floor((stakeCents * payoutPercent) / 100);
}

export type TradeDirection = "call" | "put";
export type TradeOutcome = "won" | "lost" | "tie";

/**
 * PRODUCT.md D1: call wins when exit > entry, put wins when exit < entry, equal prices tie
 * (the stake is refunded). No other rule decides an outcome.
 */
export function tradeOutcome(
  direction: TradeDirection,
  entryPrice: number,
  exitPrice: number,
): TradeOutcome {
  if (exitPrice === entryPrice) return "tie";
  const rose = exitPrice > entryPrice;
  return rose === (direction === "call") ? "won" : "lost";
}

/** What a settled trade credits back: stake + profit when won, the stake on a tie, 0 when lost. */
export function settlementCreditCents(
  outcome: TradeOutcome,
  stakeCents: number,
  payoutPercent: number,
): number {
  if (outcome === "won") return stakeCents + potentialProfitCents(stakeCents, payoutPercent);
  if (outcome === "tie") return stakeCents;
  return 0;
}
