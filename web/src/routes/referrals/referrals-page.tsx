import { ComingSoon } from "../../components/coming-soon.tsx";
import { UsersIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";

export function ReferralsPage() {
  return (
    <>
      <PageTitle title="My Referrals" description="Invite friends with your referral link." />
      <ComingSoon
        feature="The referral programme"
        icon={<UsersIcon className="size-7" />}
        description="Your personal referral link and the traders who registered with it will appear here."
      />
    </>
  );
}
