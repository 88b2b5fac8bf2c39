/**
 * Catalogue symbol → Finnhub symbol. Forex, commodities and indices come from OANDA's CFD
 * quotes (Finnhub's `OANDA:` venue), stocks by plain ticker, crypto through Finnhub's
 * Binance relay (BTCUSD is "Bitcoin Cash" in the spec, so BCH).
 */
export const finnhubSymbols: Readonly<Record<string, string>> = {
  AUDCAD: "OANDA:AUD_CAD",
  AUDJPY: "OANDA:AUD_JPY",
  EURUSD: "OANDA:EUR_USD",
  EURGBP: "OANDA:EUR_GBP",
  EURJPY: "OANDA:EUR_JPY",
  GBPUSD: "OANDA:GBP_USD",
  GBPJPY: "OANDA:GBP_JPY",
  USDJPY: "OANDA:USD_JPY",

  XAUUSD: "OANDA:XAU_USD",
  XAGUSD: "OANDA:XAG_USD",
  BCOUSD: "OANDA:BCO_USD",
  WTICOUSD: "OANDA:WTICO_USD",
  NGASUSD: "OANDA:NATGAS_USD",
  CORNUSD: "OANDA:CORN_USD",
  WHEATUSD: "OANDA:WHEAT_USD",
  XCUUSD: "OANDA:XCU_USD",

  DE30: "OANDA:DE30_EUR",
  FR40: "OANDA:FR40_EUR",
  // OANDA's Hong Kong index CFD keeps its old name, HK33.
  HK50: "OANDA:HK33_HKD",
  JP225: "OANDA:JP225_USD",
  UK100: "OANDA:UK100_GBP",
  US500: "OANDA:SPX500_USD",
  US30: "OANDA:US30_USD",
  US100: "OANDA:NAS100_USD",

  AAPL: "AAPL",
  MSFT: "MSFT",
  GOOGL: "GOOGL",
  AMZN: "AMZN",
  TSLA: "TSLA",
  NVDA: "NVDA",
  NFLX: "NFLX",
  DIS: "DIS",

  BTCUSDT: "BINANCE:BTCUSDT",
  BTCUSD: "BINANCE:BCHUSDT",
  ETHUSDT: "BINANCE:ETHUSDT",
  LTCUSDT: "BINANCE:LTCUSDT",
  BNBUSDT: "BINANCE:BNBUSDT",
  XRPUSDT: "BINANCE:XRPUSDT",
  ADAUSDT: "BINANCE:ADAUSDT",
  DOGEUSDT: "BINANCE:DOGEUSDT",
};
