import { ButtonLink } from "../../components/button.tsx";
import { ComingSoon } from "../../components/coming-soon.tsx";
import { ChartIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { paths } from "../../paths.ts";
import { statementTabs } from "./statement-tabs.ts";

export function TradeHistoryPage() {
  return (
    <>
      <PageTitle title="Trade History" description="Your real and practice trades." />
      <SectionTabs label="Statements" tabs={statementTabs} />
      <ComingSoon
        feature="Trade history"
        icon={<ChartIcon className="size-7" />}
        description="Your real and practice trades will be listed here with entry and exit prices, times and results."
      >
        <ButtonLink to={paths.user.transactionHistory} variant="secondary">
          Go to Transaction History
        </ButtonLink>
      </ComingSoon>
    </>
  );
}
