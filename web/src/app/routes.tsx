import { Navigate, type RouteObject } from "react-router";
import { adminRoute } from "../admin/admin-routes.tsx";
import { RedirectIfSignedIn } from "../auth/redirect-if-signed-in.tsx";
import { RequireAuth } from "../auth/require-auth.tsx";
import { paths } from "../paths.ts";
import { AboutPage } from "../routes/about/about-page.tsx";
import { ForgotPasswordPage } from "../routes/account/forgot-password-page.tsx";
import { ResetPasswordPage } from "../routes/account/reset-password-page.tsx";
import { SignInPage } from "../routes/account/sign-in-page.tsx";
import { SignUpPage } from "../routes/account/sign-up-page.tsx";
import { VerifyEmailPage } from "../routes/account/verify-email-page.tsx";
import { WelcomePage } from "../routes/account/welcome-page.tsx";
import { ContactPage } from "../routes/contact/contact-page.tsx";
import { DashboardPage } from "../routes/dashboard/dashboard-page.tsx";
import { FundWalletPage } from "../routes/funding/fund-wallet-page.tsx";
import { WithdrawFundsPage } from "../routes/funding/withdraw-funds-page.tsx";
import { HomePage } from "../routes/home/home-page.tsx";
import { DocumentGalleryPage } from "../routes/legal/document-gallery-page.tsx";
import { LegalDocumentsPage } from "../routes/legal/legal-documents-page.tsx";
import { PrivacyPolicyPage } from "../routes/legal/privacy-policy-page.tsx";
import { TermsOfServicePage } from "../routes/legal/terms-of-service-page.tsx";
import { BlockchainStatsPage } from "../routes/market-info/blockchain-stats-page.tsx";
import { CryptoNewsPage } from "../routes/market-info/crypto-news-page.tsx";
import { NotificationsPage } from "../routes/notifications/notifications-page.tsx";
import { ReferralsPage } from "../routes/referrals/referrals-page.tsx";
import { PersonalDataPage } from "../routes/settings/personal-data-page.tsx";
import { SecurityPage } from "../routes/settings/security-page.tsx";
import { TradeHistoryPage } from "../routes/statements/trade-history-page.tsx";
import { TransactionHistoryPage } from "../routes/statements/transaction-history-page.tsx";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { PublicLayout } from "./public-layout.tsx";
import { RootLayout } from "./root-layout.tsx";
import { UserShell } from "./user-shell/user-shell.tsx";

/** The route table of SPEC §2; the browser router and the tests' memory router share it. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.home, element: <HomePage /> },
          { path: paths.about, element: <AboutPage /> },
          { path: paths.contact, element: <ContactPage /> },
          { path: paths.privacyPolicy, element: <PrivacyPolicyPage /> },
          { path: paths.termsOfService, element: <TermsOfServicePage /> },
          { path: paths.legalDocuments, element: <LegalDocumentsPage /> },
          {
            path: paths.confirmation,
            element: <DocumentGalleryPage title="Confirmation statements" gallery="confirmation" />,
          },
          {
            path: paths.financialStatement,
            element: (
              <DocumentGalleryPage title="Financial statements" gallery="financial-statement" />
            ),
          },
          { path: paths.welcome, element: <WelcomePage /> },
          { path: paths.signUp, element: <SignUpPage /> },
          {
            element: <RedirectIfSignedIn />,
            children: [{ path: paths.signIn, element: <SignInPage /> }],
          },
          { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
          { path: paths.resetPassword, element: <ResetPasswordPage /> },
          { path: paths.verifyEmail, element: <VerifyEmailPage /> },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
      {
        path: paths.user.root,
        element: <RequireAuth />,
        children: [
          {
            element: <UserShell />,
            children: [
              { index: true, element: <Navigate to={paths.user.dashboard} replace /> },
              { path: paths.user.dashboard, element: <DashboardPage /> },
              { path: paths.user.fundWallet, element: <FundWalletPage /> },
              { path: paths.user.withdrawFunds, element: <WithdrawFundsPage /> },
              { path: paths.user.blockchainStats, element: <BlockchainStatsPage /> },
              { path: paths.user.cryptoNews, element: <CryptoNewsPage /> },
              { path: paths.user.transactionHistory, element: <TransactionHistoryPage /> },
              { path: paths.user.tradeHistory, element: <TradeHistoryPage /> },
              { path: paths.user.personalData, element: <PersonalDataPage /> },
              { path: paths.user.security, element: <SecurityPage /> },
              { path: paths.user.referrals, element: <ReferralsPage /> },
              { path: paths.user.notifications, element: <NotificationsPage /> },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
        ],
      },
      adminRoute,
    ],
  },
];
