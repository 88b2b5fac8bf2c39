import type { SiteContent } from "@tp/domain/site-content";
import type { ReactNode } from "react";
import { LifebuoyIcon, MailIcon, MapPinIcon, TicketIcon } from "../../components/icons.tsx";
import { PublicPage } from "../../components/public-page.tsx";
import { safeExternalUrl } from "../../components/safe-url.ts";
import { SiteContentGate } from "../../components/site-content-gate.tsx";

const linkClass =
  "mt-3 inline-flex text-sm font-semibold text-brand-600 hover:underline underline-offset-4 dark:text-brand-400";

function ContactCard({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-navy-700 dark:bg-navy-900">
      <div className="flex size-11 items-center justify-center rounded-xl bg-brand-600/10 text-brand-600 dark:text-brand-400">
        {icon}
      </div>
      <h2 className="mt-4 text-lg font-semibold">{title}</h2>
      <div className="mt-1 text-sm text-slate-600 dark:text-slate-400">{children}</div>
    </section>
  );
}

/** SPEC §2 /contact; each block shows only when the operator configured it (PRODUCT.md D6). */
function Contact({ content }: { content: SiteContent }) {
  const { contact } = content;
  const helpCenterUrl = safeExternalUrl(contact.help_center_url);
  const ticketUrl = safeExternalUrl(contact.ticket_url);
  const email = contact.general_email;
  const hasAny =
    email !== null || helpCenterUrl !== null || ticketUrl !== null || contact.offices.length > 0;
  const details = [
    contact.support_hours ? { label: "Support hours", value: contact.support_hours } : null,
    contact.languages.length > 0
      ? { label: "Languages", value: contact.languages.join(", ") }
      : null,
  ].filter((detail) => detail !== null);

  return (
    <PublicPage
      title="Contact us"
      intro={
        hasAny ? `Questions about ${content.company.name}? Here is how to reach us.` : undefined
      }
    >
      {hasAny ? (
        <div className="grid gap-5 md:grid-cols-3">
          {email ? (
            <ContactCard icon={<MailIcon className="size-6" />} title="General inquiries">
              <p>Write to us and we will get back to you.</p>
              <a href={`mailto:${email}`} className={`${linkClass} break-all`}>
                {email}
              </a>
            </ContactCard>
          ) : null}
          {helpCenterUrl ? (
            <ContactCard icon={<LifebuoyIcon className="size-6" />} title="Help Center">
              <p>Answers to common questions about accounts, deposits and trading.</p>
              <a href={helpCenterUrl} className={linkClass} target="_blank" rel="noreferrer">
                Visit the Help Center
              </a>
            </ContactCard>
          ) : null}
          {ticketUrl ? (
            <ContactCard icon={<TicketIcon className="size-6" />} title="Open a ticket">
              <p>
                Describe your question and our team will answer
                {contact.reply_time ? ` within ${contact.reply_time}` : ""}.
              </p>
              <a href={ticketUrl} className={linkClass} target="_blank" rel="noreferrer">
                Open a ticket
              </a>
            </ContactCard>
          ) : null}
        </div>
      ) : (
        <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-navy-600 dark:text-slate-400">
          Contact details have not been published yet.
        </p>
      )}

      {details.length > 0 ? (
        <dl className="mt-8 grid gap-4 sm:grid-cols-2">
          {details.map((detail) => (
            <div key={detail.label} className="rounded-xl bg-white p-4 dark:bg-navy-900">
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
                {detail.label}
              </dt>
              <dd className="mt-1 text-sm">{detail.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}

      {contact.offices.length > 0 ? (
        <section aria-labelledby="offices-title" className="mt-12">
          <h2 id="offices-title" className="text-2xl font-bold tracking-tight">
            Offices
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {contact.offices.map((office) => (
              <li
                key={`${office.city}-${office.address}`}
                className="flex gap-3 rounded-2xl border border-slate-200 bg-white p-5 dark:border-navy-700 dark:bg-navy-900"
              >
                <MapPinIcon className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-400" />
                <div>
                  <p className="font-semibold">
                    {office.city}, {office.country}
                  </p>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    {office.address}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </PublicPage>
  );
}

export function ContactPage() {
  return <SiteContentGate>{(content) => <Contact content={content} />}</SiteContentGate>;
}
