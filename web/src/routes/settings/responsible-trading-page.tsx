import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import {
  type RealityCheckSettings,
  reality_check_interval_choices,
  realityCheckSettingsSchema,
  responsibleTradingMessages,
} from "@tp/domain/responsible-trading";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import {
  realityCheckQueryOptions,
  useSaveRealityCheckMutation,
} from "../../api/responsible-trading.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CheckboxField, SelectField } from "../../components/form-fields.tsx";
import { ShieldIcon } from "../../components/icons.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { QueryStates } from "../../components/query-states.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { BreakSection } from "./break-section.tsx";
import { LimitsSection } from "./limits-section.tsx";
import { SectionHeading } from "./section-heading.tsx";
import { settingsTabs } from "./settings-tabs.ts";

const m = responsibleTradingMessages;

/** The intervals offered: the usual choices, and the stored one if it is another. */
function intervalChoices(current: number): number[] {
  const choices: number[] = [...reality_check_interval_choices];
  if (!choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b);
}

function RealityCheckForm({ settings }: { settings: RealityCheckSettings }) {
  const save = useSaveRealityCheckMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<RealityCheckSettings>({
    resolver: zodResolver(realityCheckSettingsSchema),
    defaultValues: settings,
  });

  const onValid = async (values: RealityCheckSettings) => {
    try {
      await save.mutateAsync(values);
      reset(values);
      toast.success(m.realityCheckSaved);
    } catch (error) {
      applyServerFieldErrors(error, setError, ["enabled", "interval_minutes"]);
      toast.error(errorMessage(error, m.realityCheckSaveFailed));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="grid gap-5 sm:grid-cols-2">
      <CheckboxField
        className="sm:col-span-2"
        label="Show me a reality check while I trade with real money"
        error={errors.enabled?.message}
        {...register("enabled")}
      />
      <SelectField
        label="Every"
        error={errors.interval_minutes?.message}
        {...register("interval_minutes", { valueAsNumber: true })}
      >
        {intervalChoices(settings.interval_minutes).map((minutes) => (
          <option key={minutes} value={minutes}>
            {minutes} minutes
          </option>
        ))}
      </SelectField>
      <div className="flex items-end justify-end">
        <Button type="submit" busy={isSubmitting} disabled={!isDirty}>
          Save
        </Button>
      </div>
    </form>
  );
}

function RealityCheckSection() {
  const query = useQuery(realityCheckQueryOptions());
  return (
    <Card aria-labelledby="reality-check-title">
      <SectionHeading
        id="reality-check-title"
        icon={<ShieldIcon className="size-5" />}
        title="Reality check"
        text="After you place a real-money trade, a reminder shows how long you have been signed in, your trades, stakes and result in this session, every 10 to 60 minutes."
      />
      <QueryStates
        query={query}
        loadingLabel="Loading the reality check settings"
        failureTitle={m.realityCheckLoadFailed}
      >
        {(settings) => <RealityCheckForm settings={settings} />}
      </QueryStates>
    </Card>
  );
}

/**
 * Settings → Responsible trading (issue 14): one section per tool: the limits, a break
 * (time-out or self-exclusion), and the reality check.
 */
export function ResponsibleTradingPage() {
  return (
    <>
      <PageTitle
        title="Responsible trading"
        description="Tools that help you keep track of your time and money while trading."
      />
      <SectionTabs label="Settings" tabs={settingsTabs} />
      <div className="flex flex-col gap-6">
        <LimitsSection />
        <BreakSection />
        <RealityCheckSection />
      </div>
    </>
  );
}
