import { ComingSoon } from "../../components/coming-soon.tsx";
import { NewsIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";

export function CryptoNewsPage() {
  return (
    <>
      <PageTitle title="Crypto News" description="The latest news from the crypto markets." />
      <ComingSoon
        feature="Crypto news"
        icon={<NewsIcon className="size-7" />}
        description="A continuously loading feed of crypto market news will appear here."
      />
    </>
  );
}
