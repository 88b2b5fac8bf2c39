import { Navigate, type RouteObject } from "react-router";
import { adminRoute } from "../admin/admin-routes.tsx";
import { RedirectIfSignedIn } from "../auth/redirect-if-signed-in.tsx";
import { RequireAuth } from "../auth/require-auth.tsx";
import { lazyPage } from "../components/lazy-page.tsx";
import { LoadingScreen } from "../components/loading-screen.tsx";
import { paths } from "../paths.ts";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { PublicLayout } from "./public-layout.tsx";
import { RootLayout } from "./root-layout.tsx";

/** The route table of SPEC §2; the browser router and the tests' memory router share it. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Until the first page's chunk arrives: a screen-high placeholder, so the footer that
    // follows the page never appears in view and then jumps (no layout shift).
    hydrateFallbackElement: <LoadingScreen className="min-h-dvh" />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            path: paths.home,
            lazy: lazyPage(
              () => import("../routes/home/home-page.tsx"),
              (m) => <m.HomePage />,
            ),
          },
          {
            path: paths.about,
            lazy: lazyPage(
              () => import("../routes/about/about-page.tsx"),
              (m) => <m.AboutPage />,
            ),
          },
          {
            path: paths.contact,
            lazy: lazyPage(
              () => import("../routes/contact/contact-page.tsx"),
              (m) => <m.ContactPage />,
            ),
          },
          {
            path: paths.privacyPolicy,
            lazy: lazyPage(
              () => import("../routes/legal/privacy-policy-page.tsx"),
              (m) => <m.PrivacyPolicyPage />,
            ),
          },
          {
            path: paths.termsOfService,
            lazy: lazyPage(
              () => import("../routes/legal/terms-of-service-page.tsx"),
              (m) => <m.TermsOfServicePage />,
            ),
          },
          {
            path: paths.legalDocuments,
            lazy: lazyPage(
              () => import("../routes/legal/legal-documents-page.tsx"),
              (m) => <m.LegalDocumentsPage />,
            ),
          },
          {
            path: paths.confirmation,
            lazy: lazyPage(
              () => import("../routes/legal/document-gallery-page.tsx"),
              (m) => (
                <m.DocumentGalleryPage title="Confirmation statements" gallery="confirmation" />
              ),
            ),
          },
          {
            path: paths.financialStatement,
            lazy: lazyPage(
              () => import("../routes/legal/document-gallery-page.tsx"),
              (m) => (
                <m.DocumentGalleryPage title="Financial statements" gallery="financial-statement" />
              ),
            ),
          },
          {
            path: paths.marketStatus,
            lazy: lazyPage(
              () => import("../routes/market-status/market-status-page.tsx"),
              (m) => <m.MarketStatusPage />,
            ),
          },
          {
            path: paths.riskDisclosure,
            lazy: lazyPage(
              () => import("../routes/risk-disclosure/risk-disclosure-page.tsx"),
              (m) => <m.RiskDisclosurePage />,
            ),
          },
          {
            path: paths.rules,
            lazy: lazyPage(
              () => import("../routes/rules/rules-page.tsx"),
              (m) => <m.RulesPage />,
            ),
          },
          {
            path: paths.welcome,
            lazy: lazyPage(
              () => import("../routes/account/welcome-page.tsx"),
              (m) => <m.WelcomePage />,
            ),
          },
          {
            path: paths.signUp,
            lazy: lazyPage(
              () => import("../routes/account/sign-up-page.tsx"),
              (m) => <m.SignUpPage />,
            ),
          },
          {
            element: <RedirectIfSignedIn />,
            children: [
              {
                path: paths.signIn,
                lazy: lazyPage(
                  () => import("../routes/account/sign-in-page.tsx"),
                  (m) => <m.SignInPage />,
                ),
              },
            ],
          },
          {
            path: paths.forgotPassword,
            lazy: lazyPage(
              () => import("../routes/account/forgot-password-page.tsx"),
              (m) => <m.ForgotPasswordPage />,
            ),
          },
          {
            path: paths.resetPassword,
            lazy: lazyPage(
              () => import("../routes/account/reset-password-page.tsx"),
              (m) => <m.ResetPasswordPage />,
            ),
          },
          {
            path: paths.verifyEmail,
            lazy: lazyPage(
              () => import("../routes/account/verify-email-page.tsx"),
              (m) => <m.VerifyEmailPage />,
            ),
          },
          {
            path: paths.confirmWithdrawal,
            lazy: lazyPage(
              () => import("../routes/account/confirm-withdrawal-page.tsx"),
              (m) => <m.ConfirmWithdrawalPage />,
            ),
          },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
      {
        path: paths.user.root,
        element: <RequireAuth />,
        children: [
          {
            lazy: lazyPage(
              () => import("./user-shell/user-shell.tsx"),
              (m) => <m.UserShell />,
            ),
            children: [
              { index: true, element: <Navigate to={paths.user.dashboard} replace /> },
              {
                path: paths.user.dashboard,
                lazy: lazyPage(
                  () => import("../routes/dashboard/dashboard-page.tsx"),
                  (m) => <m.DashboardPage />,
                ),
              },
              {
                path: paths.user.fundWallet,
                lazy: lazyPage(
                  () => import("../routes/funding/fund-wallet-page.tsx"),
                  (m) => <m.FundWalletPage />,
                ),
              },
              {
                path: paths.user.withdrawFunds,
                lazy: lazyPage(
                  () => import("../routes/funding/withdraw-funds-page.tsx"),
                  (m) => <m.WithdrawFundsPage />,
                ),
              },
              {
                path: paths.user.blockchainStats,
                lazy: lazyPage(
                  () => import("../routes/market-info/blockchain-stats-page.tsx"),
                  (m) => <m.BlockchainStatsPage />,
                ),
              },
              {
                path: paths.user.cryptoNews,
                lazy: lazyPage(
                  () => import("../routes/market-info/crypto-news-page.tsx"),
                  (m) => <m.CryptoNewsPage />,
                ),
              },
              {
                path: paths.user.cryptoMarket,
                lazy: lazyPage(
                  () => import("../routes/market-info/crypto-market-page.tsx"),
                  (m) => <m.CryptoMarketPage />,
                ),
              },
              {
                path: paths.user.transactionHistory,
                lazy: lazyPage(
                  () => import("../routes/statements/transaction-history-page.tsx"),
                  (m) => <m.TransactionHistoryPage />,
                ),
              },
              {
                path: paths.user.tradeHistory,
                lazy: lazyPage(
                  () => import("../routes/statements/trade-history-page.tsx"),
                  (m) => <m.TradeHistoryPage />,
                ),
              },
              {
                path: paths.user.statements,
                lazy: lazyPage(
                  () => import("../routes/statements/statements-page.tsx"),
                  (m) => <m.StatementsPage />,
                ),
              },
              {
                path: paths.user.personalData,
                lazy: lazyPage(
                  () => import("../routes/settings/personal-data-page.tsx"),
                  (m) => <m.PersonalDataPage />,
                ),
              },
              {
                path: paths.user.security,
                lazy: lazyPage(
                  () => import("../routes/settings/security-page.tsx"),
                  (m) => <m.SecurityPage />,
                ),
              },
              {
                path: paths.user.responsibleTrading,
                lazy: lazyPage(
                  () => import("../routes/settings/responsible-trading-page.tsx"),
                  (m) => <m.ResponsibleTradingPage />,
                ),
              },
              {
                path: paths.user.referrals,
                lazy: lazyPage(
                  () => import("../routes/referrals/referrals-page.tsx"),
                  (m) => <m.ReferralsPage />,
                ),
              },
              {
                path: paths.user.notifications,
                lazy: lazyPage(
                  () => import("../routes/notifications/notifications-page.tsx"),
                  (m) => <m.NotificationsPage />,
                ),
              },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
        ],
      },
      adminRoute,
    ],
  },
];
