import { ComingSoon } from "../../components/coming-soon.tsx";
import { BlocksIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";

export function BlockchainStatsPage() {
  return (
    <>
      <PageTitle title="Blockchain Stats" description="Bitcoin network statistics." />
      <ComingSoon
        feature="Blockchain stats"
        icon={<BlocksIcon className="size-7" />}
        description="Bitcoin network statistics, refreshed every 30 seconds, will appear here."
      />
    </>
  );
}
