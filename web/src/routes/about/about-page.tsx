import type { SiteContent } from "@tp/domain/site-content";
import { PublicPage } from "../../components/public-page.tsx";
import { safeExternalUrl } from "../../components/safe-url.ts";
import { SiteContentGate } from "../../components/site-content-gate.tsx";

const factLinkClass =
  "text-sm font-semibold text-brand-600 hover:underline underline-offset-4 dark:text-brand-400";

/**
 * Founding year, registration, licences and certifications: each only as the operator
 * configured it (PRODUCT.md D6), licences with regulator and number so anyone can check them.
 * Nothing configured: no section at all.
 */
function CompanyFacts({ company }: { company: SiteContent["company"] }) {
  const facts = [
    company.founded_year !== null
      ? { label: "Founded", value: String(company.founded_year) }
      : null,
    company.registration ? { label: "Registration", value: company.registration } : null,
  ].filter((fact) => fact !== null);
  if (facts.length === 0 && company.licences.length === 0 && company.certifications.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="company-facts-title">
      <h2 id="company-facts-title" className="text-2xl font-bold tracking-tight">
        Company facts
      </h2>
      <div className="mt-6 grid gap-4 md:grid-cols-2">
        {facts.map((fact) => (
          <div
            key={fact.label}
            className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-navy-700 dark:bg-navy-900"
          >
            <p className="text-sm text-slate-500 dark:text-slate-400">{fact.label}</p>
            <p className="mt-1 font-semibold text-navy-900 dark:text-white">{fact.value}</p>
          </div>
        ))}
        {company.licences.map((licence) => {
          const url = safeExternalUrl(licence.url);
          return (
            <div
              key={`${licence.regulator}-${licence.number}`}
              className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-navy-700 dark:bg-navy-900"
            >
              <p className="text-sm text-slate-500 dark:text-slate-400">Licence</p>
              <p className="mt-1 font-semibold text-navy-900 dark:text-white">{licence.name}</p>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {licence.regulator}, licence number {licence.number}
              </p>
              {url ? (
                <a href={url} target="_blank" rel="noopener noreferrer" className={factLinkClass}>
                  Check the regulator's register
                </a>
              ) : null}
            </div>
          );
        })}
        {company.certifications.map((certification) => {
          const url = safeExternalUrl(certification.url);
          return (
            <div
              key={certification.name}
              className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-navy-700 dark:bg-navy-900"
            >
              <p className="text-sm text-slate-500 dark:text-slate-400">Certification</p>
              <p className="mt-1 font-semibold text-navy-900 dark:text-white">
                {certification.name}
              </p>
              {url ? (
                <a href={url} target="_blank" rel="noopener noreferrer" className={factLinkClass}>
                  View certificate
                </a>
              ) : null}
            </div>
          );
        })}
      </div>
    </section>
  );
}

function About({ content }: { content: SiteContent }) {
  const { about, company } = content;
  return (
    <PublicPage title={`About ${company.name}`} intro={company.description}>
      <div className="flex flex-col gap-14">
        {about.founder_quote ? (
          <figure className="rounded-3xl border-l-4 border-brand-600 bg-white p-8 shadow-sm dark:bg-navy-900">
            <blockquote className="text-xl font-medium leading-relaxed text-slate-800 dark:text-slate-100">
              “{about.founder_quote.quote}”
            </blockquote>
            <figcaption className="mt-4 text-sm font-semibold text-slate-500 dark:text-slate-400">
              — {about.founder_quote.author}
            </figcaption>
          </figure>
        ) : null}

        <CompanyFacts company={company} />

        {about.statistics.length > 0 ? (
          <section aria-labelledby="statistics-title">
            <h2 id="statistics-title" className="text-2xl font-bold tracking-tight">
              In figures
            </h2>
            <dl className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-4">
              {about.statistics.map((statistic) => (
                <div
                  key={statistic.label}
                  className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-navy-700 dark:bg-navy-900"
                >
                  <dt className="text-sm text-slate-500 dark:text-slate-400">{statistic.label}</dt>
                  <dd className="mt-1 text-2xl font-bold text-navy-900 dark:text-white">
                    {statistic.value}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}

        {about.values.length > 0 ? (
          <section aria-labelledby="values-title">
            <h2 id="values-title" className="text-2xl font-bold tracking-tight">
              Our values
            </h2>
            <div className="mt-6 grid gap-5 sm:grid-cols-2">
              {about.values.map((value, index) => (
                <article
                  key={value.title}
                  className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-navy-700 dark:bg-navy-900"
                >
                  <span className="text-sm font-bold text-brand-600 dark:text-brand-400">
                    {String(index + 1).padStart(2, "0")}
                  </span>
                  <h3 className="mt-2 text-lg font-semibold">{value.title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
                    {value.text}
                  </p>
                </article>
              ))}
            </div>
          </section>
        ) : null}
      </div>
    </PublicPage>
  );
}

export function AboutPage() {
  return <SiteContentGate>{(content) => <About content={content} />}</SiteContentGate>;
}
