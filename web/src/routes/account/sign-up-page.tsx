import { zodResolver } from "@hookform/resolvers/zod";
import { countries, DEFAULT_COUNTRY } from "@tp/domain/countries";
import { uiMessages } from "@tp/domain/messages";
import { signUpRestrictedMessage } from "@tp/domain/restricted-countries";
import { type RegisterInput, type RegisterRequest, registerSchema } from "@tp/domain/validation";
import { type Resolver, useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { useNavigate, useSearchParams } from "react-router";
import { errorMessage } from "../../api/client.ts";
import { useRegisterMutation } from "../../api/register.ts";
import { useCountryRestricted } from "../../api/restricted-countries.ts";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { CheckboxField, SelectField, TextField } from "../../components/form-fields.tsx";
import { applyServerFieldErrors } from "../../components/server-field-errors.ts";
import { TextLink } from "../../components/text-link.tsx";
import { paths } from "../../paths.ts";
import { storageKeys, writeStorage } from "../../storage.ts";

/** The checkbox starts unticked; the schema accepts only `true` (PRODUCT.md D6, age 18). */
type SignUpValues = Omit<RegisterInput, "accept_terms"> & { accept_terms: boolean };

const resolver = zodResolver(registerSchema) as unknown as Resolver<
  SignUpValues,
  unknown,
  RegisterRequest
>;

const shownFields = [
  "first_name",
  "last_name",
  "email",
  "password",
  "password_confirmation",
  "country",
  "phone_number",
  "accept_terms",
] as const;

export function SignUpPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const registration = useRegisterMutation();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting, dirtyFields, submitCount },
  } = useForm<SignUpValues, unknown, RegisterRequest>({
    resolver,
    defaultValues: {
      first_name: "",
      last_name: "",
      email: "",
      password: "",
      password_confirmation: "",
      country: DEFAULT_COUNTRY,
      phone_number: "",
      // SPEC §3: the referral code is held from ?ref=, with no input shown.
      referral_code: searchParams.get("ref"),
      accept_terms: false,
    },
  });

  // Restricted countries (issue 14 item 4): the server's rule, shown as the trader picks
  // the country (or on submit, for the preselected one), with the server's own message.
  const country = watch("country");
  const countryRestricted = useCountryRestricted(country) === true;
  const countryError =
    errors.country?.message ??
    (countryRestricted && (dirtyFields.country || submitCount > 0)
      ? signUpRestrictedMessage(country)
      : undefined);

  const onValid = async (values: RegisterRequest) => {
    if (countryRestricted) {
      setError("country", { message: signUpRestrictedMessage(values.country) });
      onInvalid();
      return;
    }
    try {
      await registration.mutateAsync(values);
      writeStorage(storageKeys.registrationEmail, values.email);
      toast.success(uiMessages.registerSuccess);
      navigate(paths.welcome);
    } catch (error) {
      const unshown = applyServerFieldErrors(error, setError, shownFields);
      toast.error(errorMessage(error, uiMessages.registerFailed));
      for (const message of unshown) toast.error(message);
    }
  };

  const onInvalid = () => {
    // One toast however often the form is submitted: it replaces itself instead of stacking.
    toast.error(uiMessages.registerCheckFields, { id: "register-check-fields" });
  };

  return (
    <AuthCard
      title="Create your account"
      subtitle="Every account comes with a real and a practice balance."
      width="max-w-xl"
      footer={
        <>
          Already have an account? <TextLink to={paths.signIn}>Sign in</TextLink>
        </>
      }
    >
      <form
        noValidate
        onSubmit={handleSubmit(onValid, onInvalid)}
        className="grid gap-4 sm:grid-cols-2"
      >
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
          label="Email"
          type="email"
          autoComplete="email"
          className="sm:col-span-2"
          error={errors.email?.message}
          {...register("email")}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register("password")}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...register("password_confirmation")}
        />
        <SelectField
          label="Country"
          autoComplete="country-name"
          error={countryError}
          {...register("country")}
        >
          {countries.map((country) => (
            <option key={country} value={country}>
              {country}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          placeholder="+1 555 123 4567"
          error={errors.phone_number?.message}
          {...register("phone_number")}
        />
        <CheckboxField
          className="sm:col-span-2"
          label={
            <>
              I am 18 or older and accept the{" "}
              <TextLink to={paths.termsOfService} target="_blank">
                Terms of Service
              </TextLink>
            </>
          }
          error={errors.accept_terms?.message}
          {...register("accept_terms")}
        />
        <Button type="submit" size="lg" busy={isSubmitting} className="sm:col-span-2">
          Register
        </Button>
      </form>
    </AuthCard>
  );
}
