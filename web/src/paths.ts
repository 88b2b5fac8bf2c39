import { resetPasswordPagePath, verifyEmailPagePath } from "@tp/domain/paths";

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
  welcome: "/welcome",
  signUp: "/account/sign-up",
  signIn: "/account/sign-in",
  forgotPassword: "/account/forgot-password",
  resetPassword: resetPasswordPagePath,
  verifyEmail: verifyEmailPagePath,
  user: {
    root: "/user",
    dashboard: "/user/dashboard",
    fundWallet: "/user/fund-wallet",
    withdrawFunds: "/user/withdraw-funds",
    blockchainStats: "/user/blockchain-stats",
    cryptoNews: "/user/crypto-news",
    transactionHistory: "/user/transaction-history",
    tradeHistory: "/user/trade-history",
    personalData: "/user/personal-data",
    security: "/user/security",
    referrals: "/user/referrals",
    notifications: "/user/notifications",
  },
} as const;
