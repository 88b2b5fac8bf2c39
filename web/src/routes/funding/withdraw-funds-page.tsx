import { WalletIcon } from "../../components/icons.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { FundingBanner } from "../../funding/funding-banner.tsx";
import { WithdrawalFlow } from "../../funding/withdrawal-flow.tsx";
import { fundingTabs } from "./funding-tabs.ts";

/** SPEC §2 "Withdrawal": the banner with tabs, then the withdrawal flow and its notice. */
export function WithdrawFundsPage() {
  return (
    <>
      <FundingBanner
        title="Withdraw Funds"
        text="Request a payout from your real account. Practice money cannot be withdrawn."
        icon={<WalletIcon className="size-6" />}
      />
      <SectionTabs label="Funding" tabs={fundingTabs} />
      <WithdrawalFlow />
    </>
  );
}
