import { LegalText, useCompanyName } from "./legal-text.tsx";

export function PrivacyPolicyPage() {
  const company = useCompanyName();
  return (
    <LegalText
      title="Privacy Policy"
      sections={[
        {
          title: "Who we are",
          body: (
            <p>
              {company} operates this trading platform and is responsible for the personal data
              described in this policy.
            </p>
          ),
        },
        {
          title: "Data we collect",
          body: (
            <p>
              When you register we collect your name, e-mail address, country and phone number. When
              you use the platform we record your sessions, deposits, withdrawals, trades and the
              identity documents you upload for verification.
            </p>
          ),
        },
        {
          title: "Why we use it",
          body: (
            <p>
              We use your data to open and run your account, to verify your identity and age, to
              process payments, to keep an auditable record of every balance change, to secure the
              platform and to meet our legal obligations.
            </p>
          ),
        },
        {
          title: "Minimum age",
          body: (
            <p>
              The platform is for adults only. You must be at least 18 years old to register, and we
              do not knowingly collect data of anyone younger.
            </p>
          ),
        },
        {
          title: "Sharing",
          body: (
            <p>
              We share data only with service providers that help us run the platform (for example
              e-mail delivery and payment processing), and with authorities where the law requires
              it. We do not sell your data.
            </p>
          ),
        },
        {
          title: "Storage and security",
          body: (
            <p>
              Passwords are stored as one-way hashes. Sessions can be revoked from your security
              settings. We keep records for as long as the law requires, and delete or anonymise
              them after that.
            </p>
          ),
        },
        {
          title: "Your rights",
          body: (
            <p>
              You can ask for a copy of your data, ask us to correct it, or ask us to delete it
              where no legal duty requires us to keep it. Use the contact details on the Contact
              page.
            </p>
          ),
        },
        {
          title: "Local storage",
          body: (
            <p>
              The web app stores your session token, your profile, your theme choice and the e-mail
              address you registered with in your browser&apos;s local storage, so that you stay
              signed in. Signing out removes the session data.
            </p>
          ),
        },
      ]}
    />
  );
}
