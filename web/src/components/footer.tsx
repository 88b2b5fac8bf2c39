import { defaultRiskWarning } from "@tp/domain/risk-warning";
import { Link } from "react-router";
import { useSiteContent } from "../api/site-content.ts";
import { app_name } from "../brand.ts";
import { paths } from "../paths.ts";
import { Logo } from "./logo.tsx";
import { LosingAccountsSentence } from "./losing-accounts-sentence.tsx";

const linkClass = "text-sm text-navy-200 hover:text-white hover:underline underline-offset-4";

/**
 * On every page (SPEC §2, PRODUCT.md D6): the current year, links to the privacy policy
 * and terms, and the risk warning. Until the site content answers, the shipped default
 * warning shows, so no page is ever without one. The warning adds the real share of
 * losing accounts (or that there is not enough data yet) once the server has answered.
 */
export function Footer() {
  const content = useSiteContent();
  const riskWarning = content.data?.risk_warning ?? defaultRiskWarning;
  const companyName = content.data?.company.name ?? app_name;
  const registration = content.data?.company.registration ?? null;
  const year = new Date().getFullYear();
  return (
    <footer className="mt-auto border-t border-navy-800 bg-navy-950 text-navy-200">
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <div className="flex flex-col gap-8 md:flex-row md:items-start md:justify-between">
          <div className="max-w-sm">
            <Logo />
            {content.data ? (
              <p className="mt-3 text-sm text-navy-300">{content.data.company.tagline}</p>
            ) : null}
          </div>
          <nav aria-label="Footer" className="grid grid-cols-2 gap-x-10 gap-y-2 sm:grid-cols-3">
            <Link to={paths.about} className={linkClass}>
              About
            </Link>
            <Link to={paths.contact} className={linkClass}>
              Contact
            </Link>
            <Link to={paths.marketStatus} className={linkClass}>
              Market status
            </Link>
            <Link to={paths.riskDisclosure} className={linkClass}>
              Risk disclosure
            </Link>
            <Link to={paths.rules} className={linkClass}>
              Trading rules
            </Link>
            <Link to={paths.legalDocuments} className={linkClass}>
              Legal documents
            </Link>
            <Link to={paths.privacyPolicy} className={linkClass}>
              Privacy Policy
            </Link>
            <Link to={paths.termsOfService} className={linkClass}>
              Terms of Service
            </Link>
          </nav>
        </div>
        <div className="mt-8 rounded-xl border border-amber-400/25 bg-amber-400/5 p-4">
          <p className="text-xs leading-relaxed text-navy-100">
            <strong className="font-semibold text-amber-300">Risk warning: </strong>
            <span>{riskWarning}</span> <LosingAccountsSentence />
          </p>
        </div>
        <div className="mt-6 flex flex-col gap-1 text-xs text-navy-300 sm:flex-row sm:justify-between">
          <p>
            © {year} {companyName}. All rights reserved.
          </p>
          {registration ? <p>{registration}</p> : null}
        </div>
      </div>
    </footer>
  );
}
