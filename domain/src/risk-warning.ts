/** The risk warning shown until the operator's own arrives. */
export const defaultRiskWarning =
  "Trading binary options and CFDs involves a high risk of losing your money. Only trade with money you can afford to lose. Past performance does not guarantee future results.";
