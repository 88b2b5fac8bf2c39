import { ButtonLink } from "../../components/button.tsx";
import { ComingSoon } from "../../components/coming-soon.tsx";
import { WalletIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { paths } from "../../paths.ts";
import { fundingTabs } from "./funding-tabs.ts";

export function FundWalletPage() {
  return (
    <>
      <PageTitle title="Deposit Funds" description="Fund your real account in US dollars." />
      <SectionTabs label="Funding" tabs={fundingTabs} />
      <ComingSoon
        feature="Deposits"
        icon={<WalletIcon className="size-7" />}
        description="Soon you can fund your real account by crypto wallet, bank transfer or money transfer service, upload your payment proof and follow its review."
      >
        <ButtonLink to={paths.user.withdrawFunds} variant="secondary">
          Go to Withdraw
        </ButtonLink>
      </ComingSoon>
    </>
  );
}
