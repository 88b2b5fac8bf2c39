import { Navigate, type RouteObject } from "react-router";
import { paths } from "../paths.ts";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { AdminShell } from "./admin-shell.tsx";
import { AuditLogPage } from "./pages/audit-log-page.tsx";
import { DepositsPage } from "./pages/deposits-page.tsx";
import { AdminNotificationsPage } from "./pages/notifications-page.tsx";
import { PaymentMethodsPage } from "./pages/payment-methods-page.tsx";
import { ReconciliationPage } from "./pages/reconciliation-page.tsx";
import { UserDetailPage } from "./pages/user-detail-page.tsx";
import { UsersPage } from "./pages/users-page.tsx";
import { VerificationsPage } from "./pages/verifications-page.tsx";
import { WithdrawalsPage } from "./pages/withdrawals-page.tsx";
import { RequireAdmin } from "./require-admin.tsx";

/** /admin and its sections (PRODUCT.md D7), mounted by the app's route table. */
export const adminRoute: RouteObject = {
  path: paths.admin.root,
  element: <RequireAdmin />,
  children: [
    {
      element: <AdminShell />,
      children: [
        { index: true, element: <Navigate to={paths.admin.deposits} replace /> },
        { path: paths.admin.deposits, element: <DepositsPage /> },
        { path: paths.admin.withdrawals, element: <WithdrawalsPage /> },
        { path: paths.admin.verifications, element: <VerificationsPage /> },
        { path: paths.admin.users, element: <UsersPage /> },
        { path: paths.admin.user, element: <UserDetailPage /> },
        { path: paths.admin.paymentMethods, element: <PaymentMethodsPage /> },
        { path: paths.admin.auditLog, element: <AuditLogPage /> },
        { path: paths.admin.reconciliation, element: <ReconciliationPage /> },
        { path: paths.admin.notifications, element: <AdminNotificationsPage /> },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ],
};
