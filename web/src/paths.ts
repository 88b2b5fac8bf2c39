import {
  confirmWithdrawalPagePath,
  resetPasswordPagePath,
  securityPagePath,
  verifyEmailPagePath,
} from "@tp/domain/paths";

/** Every route of the app in one table (SPEC §2). Links and redirects read from here. */
export const paths = {
  home: "/",
  about: "/about",
  contact: "/contact",
  privacyPolicy: "/privacy-policy",
  termsOfService: "/terms-of-service",
  legalDocuments: "/legal-documents",
  confirmation: "/confirmation",
  financialStatement: "/financial-statement",
  /** Public: every asset's state now, feed halts and the trades refunded because of them. */
  marketStatus: "/market-status",
  /** Public: the share of real-money accounts that lost money, and how it is computed. */
  riskDisclosure: "/risk-disclosure",
  /** Public: the versioned rulebook every trade is settled by (issue 15 item 4). */
  rules: "/rules",
  welcome: "/welcome",
  signUp: "/account/sign-up",
  signIn: "/account/sign-in",
  forgotPassword: "/account/forgot-password",
  resetPassword: resetPasswordPagePath,
  verifyEmail: verifyEmailPagePath,
  confirmWithdrawal: confirmWithdrawalPagePath,
  user: {
    root: "/user",
    dashboard: "/user/dashboard",
    fundWallet: "/user/fund-wallet",
    withdrawFunds: "/user/withdraw-funds",
    blockchainStats: "/user/blockchain-stats",
    cryptoNews: "/user/crypto-news",
    /** SPEC §3 "Market data": the top coins (shown only when a market data provider is set up). */
    cryptoMarket: "/user/crypto-market",
    transactionHistory: "/user/transaction-history",
    tradeHistory: "/user/trade-history",
    /** Statements as CSV or PDF and the trader's data export (issue 14 item 6). */
    statements: "/user/statements",
    personalData: "/user/personal-data",
    security: securityPagePath,
    /** Issue 14: the reality check now; limits and self-exclusion join it as sections. */
    responsibleTrading: "/user/responsible-trading",
    referrals: "/user/referrals",
    notifications: "/user/notifications",
  },
  /** The back office (PRODUCT.md D7): staff only; traders get the 404 page. */
  admin: {
    root: "/admin",
    deposits: "/admin/deposits",
    withdrawals: "/admin/withdrawals",
    verifications: "/admin/identity",
    users: "/admin/users",
    user: "/admin/users/:id",
    paymentMethods: "/admin/payment-methods",
    auditLog: "/admin/audit-log",
    reconciliation: "/admin/reconciliation",
    notifications: "/admin/notifications",
    feeds: "/admin/feeds",
  },
} as const;
