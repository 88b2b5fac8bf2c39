import type { SiteContent } from "@tp/domain/site-content";
import { PublicPage } from "../../components/public-page.tsx";
import { SiteContentGate } from "../../components/site-content-gate.tsx";

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
