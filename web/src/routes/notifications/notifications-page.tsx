import { ComingSoon } from "../../components/coming-soon.tsx";
import { BellIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";

export function NotificationsPage() {
  return (
    <>
      <PageTitle
        title="Notifications"
        description="Messages about your account, deposits and withdrawals."
      />
      <ComingSoon
        feature="Notifications"
        icon={<BellIcon className="size-7" />}
        description="Messages about your deposits, withdrawals, verification and trades will be listed here, each with Mark as read."
      />
    </>
  );
}
