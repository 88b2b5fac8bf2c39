import { ButtonLink } from "../../components/button.tsx";
import { ComingSoon } from "../../components/coming-soon.tsx";
import { WalletIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { paths } from "../../paths.ts";
import { fundingTabs } from "./funding-tabs.ts";

export function WithdrawFundsPage() {
  return (
    <>
      <PageTitle title="Withdraw Funds" description="Request a payout from your real account." />
      <SectionTabs label="Funding" tabs={fundingTabs} />
      <ComingSoon
        feature="Withdrawals"
        icon={<WalletIcon className="size-7" />}
        description="Soon you can request withdrawals by crypto wallet, bank transfer or money transfer service and follow their status in your transaction history."
      >
        <ButtonLink to={paths.user.fundWallet} variant="secondary">
          Go to Deposit
        </ButtonLink>
      </ComingSoon>
    </>
  );
}
