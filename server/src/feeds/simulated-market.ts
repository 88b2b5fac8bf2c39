import { type Asset, type OptionType, roundPrice } from "@tp/domain/catalogue";

/**
 * Where the simulator starts each asset and how much it moves: realistic levels so the
 * practice experience looks like the real market (mid-2024 levels, rounded).
 */
export const simulatedStartPrices: Readonly<Record<string, number>> = {
  // Commodities (OANDA CFD quotes: metals per troy ounce, oil per barrel, grains per bushel).
  XAUUSD: 2_300,
  XAGUSD: 28,
  BCOUSD: 82,
  WTICOUSD: 78,
  NGASUSD: 2.5,
  CORNUSD: 4.5,
  WHEATUSD: 6,
  XCUUSD: 4.3,
  // Crypto, in USDT. BTCUSD is labelled "Bitcoin Cash" by the spec, so it walks at BCH levels.
  BTCUSDT: 65_000,
  BTCUSD: 450,
  ETHUSDT: 3_200,
  LTCUSDT: 80,
  BNBUSDT: 580,
  XRPUSDT: 0.55,
  ADAUSDT: 0.45,
  DOGEUSDT: 0.15,
  // Forex.
  AUDCAD: 0.91,
  AUDJPY: 103,
  EURUSD: 1.08,
  EURGBP: 0.85,
  EURJPY: 168,
  GBPUSD: 1.27,
  GBPJPY: 197,
  USDJPY: 155,
  // Stocks, in USD.
  AAPL: 190,
  MSFT: 420,
  GOOGL: 170,
  AMZN: 185,
  TSLA: 180,
  NVDA: 900,
  NFLX: 620,
  DIS: 110,
  // Indices, in points.
  DE30: 18_500,
  FR40: 8_000,
  HK50: 18_000,
  JP225: 39_000,
  UK100: 8_200,
  US500: 5_300,
  US30: 39_500,
  US100: 18_600,
};

/** Typical annualised volatility of each option type (a fraction: 0.08 = 8 % a year). */
export const annualVolatilityByType: Readonly<Record<OptionType, number>> = {
  forex: 0.08,
  commodities: 0.25,
  stocks: 0.3,
  indices: 0.15,
  crypto: 0.6,
};

/**
 * Annualised volatility is quoted over 252 trading days. The simulator trades around the
 * clock, so its year is 252 days of 24 hours: per-tick moves then match a live market's
 * (EURUSD moves about one unit of its 5th decimal per 250 ms tick).
 */
export const simulated_year_ms = 252 * 24 * 60 * 60 * 1000;

/**
 * One step of the geometric Brownian motion, `step_ms` long, for an option type: the
 * log-price moves by drift + deviation × Z. The drift −σ²·dt/2 keeps the expected price
 * constant (no trend); the deviation is σ·√dt. The live feed and the simulated past share it.
 */
export function gbmStep(
  optionType: OptionType,
  step_ms: number,
): { drift: number; deviation: number } {
  const volatility = annualVolatilityByType[optionType];
  const stepYears = step_ms / simulated_year_ms;
  return {
    drift: (-volatility * volatility * stepYears) / 2,
    deviation: volatility * Math.sqrt(stepYears),
  };
}

/** The quote of an unrounded walk value: the asset's precision, and never 0 (never free). */
export function quotedPrice(asset: Asset, price: number): number {
  return Math.max(roundPrice(asset, price), 10 ** -asset.precision);
}
