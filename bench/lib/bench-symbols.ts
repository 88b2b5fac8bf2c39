// The symbols every bench trades and streams: ten from the catalogue, across its markets
// (forex, a cross, a metal, crypto, a stock, two indices).
export const bench_symbols = [
  "EURUSD",
  "GBPUSD",
  "USDJPY",
  "AUDCAD",
  "XAUUSD",
  "BTCUSDT",
  "ETHUSDT",
  "AAPL",
  "US500",
  "DE30",
];
