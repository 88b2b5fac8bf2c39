import type { RouteObject } from "react-router";
import { lazyPage } from "../components/lazy-page.tsx";
import { paths } from "../paths.ts";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { RequireAdmin } from "./require-admin.tsx";

/** /admin and its sections (PRODUCT.md D7), mounted by the app's route table. */
export const adminRoute: RouteObject = {
  path: paths.admin.root,
  element: <RequireAdmin />,
  children: [
    {
      lazy: lazyPage(
        () => import("./admin-shell.tsx"),
        (m) => <m.AdminShell />,
      ),
      children: [
        {
          index: true,
          lazy: lazyPage(
            () => import("./pages/setup-page.tsx"),
            (m) => <m.SetupPage />,
          ),
        },
        {
          path: paths.admin.deposits,
          lazy: lazyPage(
            () => import("./pages/deposits-page.tsx"),
            (m) => <m.DepositsPage />,
          ),
        },
        {
          path: paths.admin.withdrawals,
          lazy: lazyPage(
            () => import("./pages/withdrawals-page.tsx"),
            (m) => <m.WithdrawalsPage />,
          ),
        },
        {
          path: paths.admin.verifications,
          lazy: lazyPage(
            () => import("./pages/verifications-page.tsx"),
            (m) => <m.VerificationsPage />,
          ),
        },
        {
          path: paths.admin.users,
          lazy: lazyPage(
            () => import("./pages/users-page.tsx"),
            (m) => <m.UsersPage />,
          ),
        },
        {
          path: paths.admin.user,
          lazy: lazyPage(
            () => import("./pages/user-detail-page.tsx"),
            (m) => <m.UserDetailPage />,
          ),
        },
        {
          path: paths.admin.paymentMethods,
          lazy: lazyPage(
            () => import("./pages/payment-methods-page.tsx"),
            (m) => <m.PaymentMethodsPage />,
          ),
        },
        {
          path: paths.admin.auditLog,
          lazy: lazyPage(
            () => import("./pages/audit-log-page.tsx"),
            (m) => <m.AuditLogPage />,
          ),
        },
        {
          path: paths.admin.reconciliation,
          lazy: lazyPage(
            () => import("./pages/reconciliation-page.tsx"),
            (m) => <m.ReconciliationPage />,
          ),
        },
        {
          path: paths.admin.notifications,
          lazy: lazyPage(
            () => import("./pages/notifications-page.tsx"),
            (m) => <m.AdminNotificationsPage />,
          ),
        },
        {
          path: paths.admin.feeds,
          lazy: lazyPage(
            () => import("./pages/feeds-page.tsx"),
            (m) => <m.FeedsPage />,
          ),
        },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ],
};
