import { LegalText, useCompanyName } from "./legal-text.tsx";

export function TermsOfServicePage() {
  const company = useCompanyName();
  return (
    <LegalText
      title="Terms of Service"
      sections={[
        {
          title: "Agreement",
          body: (
            <p>
              These terms govern your use of the trading platform operated by {company}. By
              registering you accept them.
            </p>
          ),
        },
        {
          title: "Eligibility and minimum age",
          body: (
            <p>
              You must be at least 18 years old and legally able to enter into a contract in your
              country of residence. You confirm this when you register. We may ask for proof of
              identity and age at any time and may close accounts that do not meet this condition.
            </p>
          ),
        },
        {
          title: "Your account",
          body: (
            <p>
              Each trader holds one real account and one practice account, both in US dollars. Keep
              your password secret; you are responsible for activity under your account. Practice
              balances have no monetary value and cannot be withdrawn.
            </p>
          ),
        },
        {
          title: "Risk",
          body: (
            <p>
              Trading binary options and CFDs involves a high risk of losing your money. A
              fixed-time contract can lose its whole stake. Only trade with money you can afford to
              lose. Past performance does not guarantee future results.
            </p>
          ),
        },
        {
          title: "Trades",
          body: (
            <p>
              A trade opens at the price in force when the platform accepts it and settles at the
              price in force at its expiry. The entry and exit prices and times of every trade are
              recorded and shown in your trade history.
            </p>
          ),
        },
        {
          title: "Deposits and withdrawals",
          body: (
            <p>
              Deposits are credited after review. Withdrawals are paid to accounts in your own name,
              normally by the method you deposited with, and may require proof of identity and
              address.
            </p>
          ),
        },
        {
          title: "Ending the agreement",
          body: (
            <p>
              You may close your account at any time after withdrawing your balance. We may suspend
              or close accounts that break these terms or the law.
            </p>
          ),
        },
      ]}
    />
  );
}
