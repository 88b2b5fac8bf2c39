import type { SiteContent } from "@tp/domain/site-content";
import { ButtonLink } from "../../components/button.tsx";
import { DocumentTitle } from "../../components/document-title.tsx";
import {
  ArrowRightIcon,
  ChartIcon,
  LockIcon,
  ShieldIcon,
  SparkIcon,
  TargetIcon,
  UsersIcon,
} from "../../components/icons.tsx";
import { SiteContentGate } from "../../components/site-content-gate.tsx";
import { paths } from "../../paths.ts";
import { SafariInstallHint } from "../../pwa/safari-install-hint.tsx";
import { HeroIllustration } from "./hero-illustration.tsx";

const featureIcons = [ChartIcon, ShieldIcon, TargetIcon, SparkIcon] as const;

/** The five markets of the asset catalogue (SPEC §3): what the platform offers, not a claim. */
const markets = ["Forex", "Commodities", "Stocks", "Indices", "Crypto"] as const;

function CallsToAction({ className = "" }: { className?: string }) {
  return (
    <div className={`flex flex-col gap-3 sm:flex-row ${className}`}>
      <ButtonLink to={paths.signUp} variant="danger" size="lg">
        Register
        <ArrowRightIcon className="size-4" />
      </ButtonLink>
      <ButtonLink to={paths.signIn} variant="outline-light" size="lg">
        Try Free Demo
      </ButtonLink>
    </div>
  );
}

function Home({ content }: { content: SiteContent }) {
  const { home, company } = content;
  return (
    <>
      <DocumentTitle />
      <SafariInstallHint />
      <section className="relative overflow-hidden bg-navy-950 text-white">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-40 right-0 size-[36rem] rounded-full bg-brand-600/20 blur-3xl"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24 lg:px-8">
          <div>
            <p className="inline-flex rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs font-medium text-navy-100">
              {company.tagline}
            </p>
            <h1 className="mt-5 text-4xl font-extrabold tracking-tight sm:text-5xl">
              {home.hero_title}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-navy-200">{home.hero_text}</p>
            <CallsToAction className="mt-8" />
          </div>
          <div className="mx-auto w-full max-w-md">
            <HeroIllustration />
          </div>
        </div>
      </section>

      {home.features.length > 0 ? (
        <section
          aria-labelledby="features-title"
          className="mx-auto w-full max-w-7xl px-4 py-16 sm:px-6 lg:px-8"
        >
          <h2 id="features-title" className="sr-only">
            Features
          </h2>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {home.features.map((feature, index) => {
              const FeatureIcon = featureIcons[index % featureIcons.length] ?? ChartIcon;
              return (
                <article
                  key={feature.title}
                  className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-navy-700 dark:bg-navy-900"
                >
                  <div className="flex size-11 items-center justify-center rounded-xl bg-brand-600/10 text-brand-600 dark:text-brand-400">
                    <FeatureIcon className="size-6" />
                  </div>
                  <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
                    {feature.text}
                  </p>
                </article>
              );
            })}
          </div>
        </section>
      ) : null}

      <section className="bg-white dark:bg-navy-900">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-16 sm:px-6 md:grid-cols-2 lg:px-8">
          <div>
            <h2 className="text-3xl font-bold tracking-tight">{home.opportunity.title}</h2>
            <p className="mt-4 text-base leading-relaxed text-slate-600 dark:text-slate-400">
              {home.opportunity.text}
            </p>
          </div>
          <ul className="flex flex-wrap gap-3" aria-label="Markets">
            {markets.map((market) => (
              <li
                key={market}
                className="rounded-xl border border-slate-200 bg-slate-50 px-5 py-3 text-sm font-semibold text-navy-800 dark:border-navy-700 dark:bg-navy-800 dark:text-navy-100"
              >
                {market}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="bg-navy-950 text-white">
        <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-16 sm:px-6 md:flex-row md:items-center lg:px-8">
          <div className="flex size-16 shrink-0 items-center justify-center rounded-2xl bg-brand-600/20 text-brand-400">
            <LockIcon className="size-8" />
          </div>
          <div className="max-w-3xl">
            <h2 className="text-3xl font-bold tracking-tight">{home.security.title}</h2>
            <p className="mt-4 text-base leading-relaxed text-navy-200">{home.security.text}</p>
          </div>
        </div>
      </section>

      <section className="mx-auto w-full max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <div className="flex flex-col gap-6 rounded-3xl border border-slate-200 bg-white p-8 shadow-sm sm:flex-row sm:items-center dark:border-navy-700 dark:bg-navy-900">
          <div className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-emerald-500/10 text-emerald-600 dark:text-emerald-400">
            <UsersIcon className="size-7" />
          </div>
          <div>
            <h2 className="text-2xl font-bold tracking-tight">{home.team.title}</h2>
            <p className="mt-2 text-base text-slate-600 dark:text-slate-400">{home.team.text}</p>
          </div>
        </div>
      </section>

      <section className="bg-gradient-to-r from-brand-700 to-navy-800 text-white">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <div>
            <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">{company.name}</h2>
            <p className="mt-2 max-w-xl text-navy-100">{company.tagline}</p>
          </div>
          <CallsToAction />
        </div>
      </section>
    </>
  );
}

export function HomePage() {
  return <SiteContentGate>{(content) => <Home content={content} />}</SiteContentGate>;
}
