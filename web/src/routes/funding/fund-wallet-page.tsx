import { depositsRestrictedNotice } from "@tp/domain/restricted-countries";
import { useCountryRestricted } from "../../api/restricted-countries.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { CountryRestrictedNotice } from "../../components/country-restricted-notice.tsx";
import { WalletIcon } from "../../components/icons.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { DepositFlow } from "../../funding/deposit-flow.tsx";
import { FundingBanner } from "../../funding/funding-banner.tsx";
import { RealTradingNotice } from "../../funding/real-trading-notice.tsx";
import { fundingTabs } from "./funding-tabs.ts";

/**
 * SPEC §2 "Funding flow": the banner with tabs, then the deposit flow, preceded by a notice
 * while real-account trading is unavailable on most markets (issue 11). A resident of a
 * restricted country (issue 14 item 4) is told why deposits are off instead of the flow.
 */
export function FundWalletPage() {
  const country = useAuth().user?.account.country;
  const restricted = useCountryRestricted(country);
  return (
    <>
      <FundingBanner
        title="Deposit Funds"
        text="Fund your real account in US dollars by crypto wallet, bank transfer or money transfer."
        icon={<WalletIcon className="size-6" />}
      />
      <SectionTabs label="Funding" tabs={fundingTabs} />
      {restricted ? (
        <CountryRestrictedNotice
          country={country}
          label="Deposits"
          text={depositsRestrictedNotice}
        />
      ) : (
        <>
          <RealTradingNotice />
          <DepositFlow />
        </>
      )}
    </>
  );
}
