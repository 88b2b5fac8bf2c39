import { zodResolver } from "@hookform/resolvers/zod";
import type { UserView } from "@tp/domain/api";
import { uiMessages } from "@tp/domain/messages";
import { type UpdateProfileRequest, updateProfileSchema } from "@tp/domain/validation";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import { useUpdateProfileMutation } from "../../api/update-profile.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { SectionTabs } from "../../components/section-tabs.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { AccountClosureSection } from "./account-closure-section.tsx";
import { settingsTabs } from "./settings-tabs.ts";

type ProfileValues = {
  first_name: string;
  last_name: string;
  phone_number: string;
  country?: string;
};

/** SPEC §2: first name, last name and phone editable; e-mail, username and country read-only. */
function PersonalDataForm({ user }: { user: UserView }) {
  const update = useUpdateProfileMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileValues, unknown, UpdateProfileRequest>({
    resolver: zodResolver(updateProfileSchema),
    defaultValues: {
      first_name: user.account.first_name,
      last_name: user.account.last_name,
      phone_number: user.account.phone_number,
    },
  });

  const onValid = async (values: UpdateProfileRequest) => {
    try {
      // The spec's form sends the country too; it is the stored one, never an edit.
      const reply = await update.mutateAsync({ ...values, country: user.account.country });
      reset(values);
      toast.success(reply.message ?? uiMessages.personalDataSuccess);
    } catch (error) {
      applyServerFieldErrors(error, setError, ["first_name", "last_name", "phone_number"]);
      toast.error(errorMessage(error, uiMessages.personalDataFailed));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="grid gap-5 sm:grid-cols-2">
      <TextField
        label="First name"
        autoComplete="given-name"
        error={errors.first_name?.message}
        {...register("first_name")}
      />
      <TextField
        label="Last name"
        autoComplete="family-name"
        error={errors.last_name?.message}
        {...register("last_name")}
      />
      <TextField
        label="Phone number"
        type="tel"
        autoComplete="tel"
        error={errors.phone_number?.message}
        {...register("phone_number")}
      />
      <TextField label="Email" type="email" value={user.email} readOnly hint="Cannot be changed" />
      <TextField label="Username" value={user.username} readOnly hint="Cannot be changed" />
      <TextField label="Country" value={user.account.country} readOnly hint="Cannot be changed" />
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" busy={isSubmitting} disabled={!isDirty}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

export function PersonalDataPage() {
  const { user } = useAuth();
  if (user === null) throw new Error("PersonalDataPage rendered without a signed-in user");
  return (
    <>
      <PageTitle title="Personal Data" description="Your name and contact details." />
      <SectionTabs label="Settings" tabs={settingsTabs} />
      <Card>
        <PersonalDataForm user={user} />
      </Card>
      {user.role === "trader" ? <AccountClosureSection /> : null}
    </>
  );
}
