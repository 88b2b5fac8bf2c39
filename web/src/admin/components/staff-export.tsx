import type { StaffExportKind } from "@tp/domain/statements";
import type { FieldErrors } from "@tp/domain/validation";
import { useId, useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage, fieldErrorsOf } from "../../api/client.ts";
import { downloadFile } from "../../api/download-file.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import {
  PeriodFields,
  type PeriodValues,
  periodErrors,
  thisMonth,
  utcDateText,
} from "../../components/period-fields.tsx";

const kindLabels: Record<StaffExportKind, string> = {
  deposits: "Download deposits CSV",
  withdrawals: "Download withdrawals CSV",
  ledger: "Download ledger CSV",
  trades: "Download trades CSV",
};

/**
 * The auditors' exports (issue 14 item 6): a period and one button per kind, each a CSV
 * from GET /admin/exports/{kind}. Support and up may download (it is a read).
 */
export function StaffExport({ kinds }: { kinds: readonly StaffExportKind[] }) {
  const headingId = useId();
  const [period, setPeriod] = useState<PeriodValues>(() => thisMonth(new Date()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<StaffExportKind | null>(null);

  async function download(kind: StaffExportKind) {
    const problems = periodErrors(period, new Date());
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(kind);
    try {
      const name = await downloadFile(
        `/admin/exports/${kind}?${new URLSearchParams({ ...period }).toString()}`,
        `${kind}.csv`,
      );
      toast.success(`Downloaded ${name}`);
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      toast.error(errorMessage(error, "The export failed. Please try again."));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card aria-labelledby={headingId} className="mt-6">
      <h2 id={headingId} className="text-lg font-semibold">
        Export for auditors
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        CSV of the records created in the period (UTC days, at most 5 years).
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <PeriodFields
          values={period}
          errors={errors}
          max={utcDateText(new Date())}
          onChange={(values) => {
            setPeriod(values);
            setErrors({});
          }}
        />
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        {kinds.map((kind) => (
          <Button
            key={kind}
            variant="secondary"
            size="sm"
            busy={busy === kind}
            disabled={busy !== null}
            onClick={() => download(kind)}
          >
            {kindLabels[kind]}
          </Button>
        ))}
      </div>
    </Card>
  );
}
