import { ButtonLink } from "../../components/button.tsx";
import { ComingSoon } from "../../components/coming-soon.tsx";
import { HistoryIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { paths } from "../../paths.ts";
import { statementTabs } from "./statement-tabs.ts";

export function TransactionHistoryPage() {
  return (
    <>
      <PageTitle title="Transaction History" description="Your deposits and withdrawals." />
      <SectionTabs label="Statements" tabs={statementTabs} />
      <ComingSoon
        feature="Transaction history"
        icon={<HistoryIcon className="size-7" />}
        description="Every deposit and withdrawal will be listed here with its method, amount and status."
      >
        <ButtonLink to={paths.user.tradeHistory} variant="secondary">
          Go to Trade History
        </ButtonLink>
      </ComingSoon>
    </>
  );
}
