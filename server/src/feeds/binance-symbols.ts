/**
 * Catalogue symbol → Binance spot symbol. SPEC §3 labels BTCUSD "Bitcoin Cash", so it is
 * priced from Binance's BCH market.
 */
export const binanceSymbols: Readonly<Record<string, string>> = {
  BTCUSDT: "BTCUSDT",
  BTCUSD: "BCHUSDT",
  ETHUSDT: "ETHUSDT",
  LTCUSDT: "LTCUSDT",
  BNBUSDT: "BNBUSDT",
  XRPUSDT: "XRPUSDT",
  ADAUSDT: "ADAUSDT",
  DOGEUSDT: "DOGEUSDT",
};
