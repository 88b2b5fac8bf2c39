import type { StatementAccount, StatementFormat } from "@tp/domain/statements";
import type { FieldErrors } from "@tp/domain/validation";
import { useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage, fieldErrorsOf } from "../../api/client.ts";
import { downloadFile } from "../../api/download-file.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { SelectField } from "../../components/form-fields.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import {
  PeriodFields,
  type PeriodValues,
  periodErrors,
  thisMonth,
  utcDateText,
} from "../../components/period-fields.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { statementTabs } from "./statement-tabs.ts";

type Busy = StatementFormat | "export" | null;

export const statementsPageMessages = {
  downloadFailed: "The download failed. Please try again.",
  downloaded: (name: string) => `Downloaded ${name}`,
} as const;

/**
 * Statements (issue 14 item 6): a statement for any period, as CSV or PDF, and the full
 * export of the trader's own data as one JSON file. The period is checked here with the
 * server's own rule and messages; the server checks it again.
 */
export function StatementsPage() {
  const today = utcDateText(new Date());
  const [period, setPeriod] = useState<PeriodValues>(() => thisMonth(new Date()));
  const [account, setAccount] = useState<StatementAccount>("real");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<Busy>(null);

  async function download(what: Exclude<Busy, null>) {
    let path = "/statements/data-export";
    let fallback = "my-data.json";
    if (what !== "export") {
      const problems = periodErrors(period, new Date());
      setErrors(problems);
      if (Object.keys(problems).length > 0) return;
      const query = new URLSearchParams({ ...period, format: what, account });
      path = `/statements?${query.toString()}`;
      fallback = `statement.${what}`;
    }
    setBusy(what);
    try {
      const name = await downloadFile(path, fallback);
      toast.success(statementsPageMessages.downloaded(name));
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      toast.error(errorMessage(error, statementsPageMessages.downloadFailed));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <PageTitle
        title="Statements"
        description="Download a statement of any period, or everything we hold about you."
      />
      <SectionTabs label="Statements" tabs={statementTabs} />
      <div className="grid gap-6">
        <Card aria-labelledby="statement-heading">
          <h2
            id="statement-heading"
            className="text-lg font-semibold text-slate-900 dark:text-white"
          >
            Account statement
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Opening and closing balance and every deposit, withdrawal, fee, trade and result in the
            period (UTC days, at most 5 years).
          </p>
          <div className="mt-4 grid gap-4 sm:grid-cols-3">
            <PeriodFields
              values={period}
              errors={errors}
              max={today}
              onChange={(values) => {
                setPeriod(values);
                setErrors({});
              }}
            />
            <SelectField
              label="Account"
              value={account}
              onChange={(event) => setAccount(event.target.value as StatementAccount)}
            >
              <option value="real">Real account</option>
              <option value="practice">Practice account</option>
            </SelectField>
          </div>
          <div className="mt-5 flex flex-wrap gap-3">
            <Button busy={busy === "csv"} disabled={busy !== null} onClick={() => download("csv")}>
              Download CSV
            </Button>
            <Button
              variant="secondary"
              busy={busy === "pdf"}
              disabled={busy !== null}
              onClick={() => download("pdf")}
            >
              Download PDF
            </Button>
          </div>
        </Card>
        <Card aria-labelledby="export-heading">
          <h2 id="export-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            Your data
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            One JSON file with your profile, sessions, sign-in history, trades with their audit,
            ledger lines, deposits, withdrawals, documents (their details, not the files),
            notifications and referrals.
          </p>
          <div className="mt-5">
            <Button
              variant="secondary"
              busy={busy === "export"}
              disabled={busy !== null}
              onClick={() => download("export")}
            >
              Download my data
            </Button>
          </div>
        </Card>
      </div>
    </>
  );
}
