import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { amountNotAboveFeeMessage, describeFee, feeScheduleOf, hasFee } from "@tp/domain/fees";
import {
  type CreateWithdrawalInput,
  type CreateWithdrawalRequest,
  createWithdrawalSchema,
  fundingMessages as m,
  type PaymentMethodKind,
  type PaymentMethodView,
  withdrawalDetailFields,
} from "@tp/domain/funding";
import { uiMessages } from "@tp/domain/messages";
import { centsFromDollars, dollarsFromCents, formatUsd } from "@tp/domain/money";
import { useEffect, useMemo, useReducer } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../api/client.ts";
import { createWithdrawal } from "../api/create-withdrawal.ts";
import { useResendVerificationEmailMutation } from "../api/email-resend.ts";
import { paymentMethodsQueryOptions } from "../api/payment-methods.ts";
import { newIdempotencyKey } from "../api/place-trade.ts";
import { transactionHistoryRootKey } from "../api/transaction-history.ts";
import { userQueryKey } from "../api/user.ts";
import { useAuth } from "../auth/auth-context.ts";
import { Button, ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { TextField } from "../components/form-fields.tsx";
import { AlertCircleIcon, CheckCircleIcon, InfoIcon } from "../components/icons.tsx";
import { TextLink } from "../components/text-link.tsx";
import { useMediaQuery } from "../components/use-media-query.ts";
import { useProofOfWork } from "../components/use-proof-of-work.tsx";
import { paths } from "../paths.ts";
import type { Notifier } from "./deposit-actions.ts";
import { DetailRow } from "./detail-row.tsx";
import { AmountFeePreview, FeeRows, feeOfDollars } from "./fee-summary.tsx";
import { ArrowLeftIcon } from "./funding-icons.tsx";
import { MethodList, MethodMark } from "./method-list.tsx";
import { StepIndicator } from "./step-indicator.tsx";
import { confirmWithdrawal, type WithdrawalApi } from "./withdrawal-actions.ts";
import {
  initialWithdrawalState,
  isWithdrawalMethodUsable,
  type WithdrawalState,
  type WithdrawalStep,
  withdrawalReducer,
} from "./withdrawal-machine.ts";

const stepLabels = ["Method", "Details", "Confirm", "Done"] as const;

/** Tailwind's `lg`: where the notices sit in a column beside the flow. */
const wide_screen_query = "(min-width: 1024px)";

const stepIndex: Record<WithdrawalStep, number> = {
  SELECT_METHOD: 0,
  FORM: 1,
  CONFIRM_WITHDRAWAL: 2,
  SUCCESS: 3,
};

/** The label of each withdrawal detail field (SPEC §3 "Withdrawal"). */
export const withdrawalFieldLabels: Record<string, string> = {
  wallet_address: "Wallet address",
  receiver_name: "Receiver name",
  receiver_address: "Receiver address",
  bank_name: "Bank name",
  account_name: "Account name",
  account_number: "Account number",
  routing_number: "Routing number",
};

const notifier: Notifier = {
  success: (text) => void toast.success(text),
  error: (text) => void toast.error(text),
};

function useWithdrawalApi(): WithdrawalApi {
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      createWithdrawal: async (request, key) => {
        const created = await createWithdrawal(request, key);
        // The hold moved money out of the available balance; the history has a new row.
        void queryClient.invalidateQueries({ queryKey: userQueryKey });
        void queryClient.invalidateQueries({ queryKey: transactionHistoryRootKey });
        return created;
      },
      reloadMethod: async (methodId) => {
        const methods = await queryClient.fetchQuery({
          ...paymentMethodsQueryOptions(),
          staleTime: 0,
        });
        return methods.find((method) => method.id === methodId) ?? null;
      },
      newIdempotencyKey,
    }),
    [queryClient],
  );
}

/**
 * Withdraw (SPEC §2 "Withdrawal", §4 "Withdrawal flow", §8; PRODUCT.md D4): choose a
 * method, fill in where the money goes, confirm; the request is stored and the amount held
 * until staff pay it out.
 */
export function WithdrawalFlow() {
  const methods = useQuery(paymentMethodsQueryOptions());
  const [state, dispatch] = useReducer(withdrawalReducer, initialWithdrawalState);
  const api = useWithdrawalApi();
  const { user } = useAuth();
  // What blocks a withdrawal comes first on a phone, beside the flow on a wide screen.
  const wide = useMediaQuery(wide_screen_query, true);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0">
        {wide ? null : (
          <div className="mb-6">
            <AccountChecks />
          </div>
        )}
        <StepIndicator
          label="Withdrawal steps"
          steps={stepLabels}
          current={stepIndex[state.step]}
        />
        {state.step === "SELECT_METHOD" || state.step === "FORM" ? (
          <Card aria-labelledby="withdraw-methods-title">
            <h2 id="withdraw-methods-title" className="mb-1 text-lg font-semibold">
              Choose a withdrawal method
            </h2>
            <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
              Payouts normally go back by the method you deposited with.
            </p>
            {methods.isPending ? (
              <p role="status" className="py-8 text-center text-sm text-slate-500">
                Loading...
              </p>
            ) : methods.isError ? (
              <p role="alert" className="py-8 text-center text-sm text-red-600 dark:text-red-400">
                The payment methods could not be loaded.{" "}
                <button
                  type="button"
                  className="font-semibold underline"
                  onClick={() => void methods.refetch()}
                >
                  Try again
                </button>
              </p>
            ) : (
              <MethodList
                label="Withdrawal methods"
                methods={methods.data}
                isUsable={isWithdrawalMethodUsable}
                selectedId={state.method?.id ?? null}
                unavailableId={state.unavailableMethodId}
                onChoose={(method) => dispatch({ type: "CHOOSE_METHOD", method })}
                noMethods={{
                  title: m.noWithdrawalMethods,
                  reason: m.noWithdrawalMethodsReason,
                }}
              />
            )}
          </Card>
        ) : null}
        {state.step === "FORM" && state.method ? (
          <WithdrawalForm
            key={state.method.id}
            method={state.method}
            balance={user?.account.account_balance ?? null}
            onBack={() => dispatch({ type: "CHANGE_METHOD" })}
            onReview={(request) =>
              dispatch({ type: "REVIEW", request, idempotencyKey: newIdempotencyKey() })
            }
          />
        ) : null}
        {state.step === "CONFIRM_WITHDRAWAL" && state.method && state.request ? (
          <WithdrawalConfirmation
            state={state}
            method={state.method}
            request={state.request}
            onBack={() => dispatch({ type: "BACK" })}
            onConfirm={() => void confirmWithdrawal({ api, notify: notifier, dispatch }, state)}
          />
        ) : null}
        {state.step === "SUCCESS" ? (
          <WithdrawalSuccess state={state} onAgain={() => dispatch({ type: "START_OVER" })} />
        ) : null}
      </div>
      <aside className="flex flex-col gap-4">
        {wide ? <AccountChecks /> : null}
        <WithdrawalNotice methods={methods.data ?? null} method={state.method} />
      </aside>
    </div>
  );
}

/**
 * The fee line of the notice (PRODUCT.md D11 "Fees: none unless configured"): the chosen
 * method's fee, else "No fees" when no method has one, else that it depends on the method.
 */
export function withdrawalFeeNotice(
  methods: readonly PaymentMethodView[] | null,
  method: PaymentMethodView | null,
): string {
  if (method) {
    const schedule = feeScheduleOf(method, "withdrawal");
    return hasFee(schedule)
      ? `${method.name} withdrawals have a fee of ${describeFee(schedule)}, taken out of the amount paid out.`
      : `No fees on ${method.name} withdrawals.`;
  }
  if (methods === null) return "Any fee is shown before you confirm.";
  const withFee = methods.filter((item) => hasFee(feeScheduleOf(item, "withdrawal")));
  if (withFee.length === 0) return "No fees.";
  return "Some methods have a fee, taken out of the amount paid out: it is shown before you confirm.";
}

/** SPEC §2 "Withdrawal": the notice every withdrawal shows. */
function WithdrawalNotice({
  methods,
  method,
}: {
  methods: readonly PaymentMethodView[] | null;
  method: PaymentMethodView | null;
}) {
  return (
    <Card aria-labelledby="withdrawal-notice-title" as="div">
      <h2 id="withdrawal-notice-title" className="mb-3 flex items-center gap-2 font-semibold">
        <InfoIcon className="size-5 text-brand-600 dark:text-brand-400" />
        Before you withdraw
      </h2>
      <ul className="list-disc space-y-2 pl-5 text-sm text-slate-600 dark:text-slate-400">
        <li>Proof of identity and address may be required.</li>
        <li data-testid="withdrawal-fee-notice">{withdrawalFeeNotice(methods, method)}</li>
        <li>Payouts normally go by the method you deposited with.</li>
        <li>Withdrawals to accounts not owned by the account holder are denied.</li>
        <li>Withdrawals are processed within 24-48 hours.</li>
      </ul>
    </Card>
  );
}

/** The account's standing for withdrawals: verified e-mail and identity (PRODUCT.md D11). */
function AccountChecks() {
  const { user } = useAuth();
  const resend = useResendVerificationEmailMutation();
  const challenge = useProofOfWork();
  if (!user) return null;
  const emailVerified = user.email_verified_at !== null;
  const identityVerified = user.account.kyc_verified_at !== null;
  if (emailVerified && identityVerified) return null;
  const onResend = async () => {
    try {
      await resend.mutateAsync(challenge.withPayload({ email: user.email }));
      toast.success(uiMessages.resendSuccess);
    } catch (error) {
      challenge.afterFailure(error);
      toast.error(errorMessage(error, "The verification e-mail could not be sent"));
    }
  };
  return (
    <Card
      aria-labelledby="account-checks-title"
      as="div"
      className="border-amber-300 dark:border-amber-500/40"
    >
      <h2 id="account-checks-title" className="mb-2 flex items-center gap-2 font-semibold">
        <AlertCircleIcon className="size-5 text-amber-500" />
        Verification needed
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Withdrawals need a verified e-mail address and approved identity documents.
      </p>
      <ul className="space-y-3 text-sm">
        {emailVerified ? null : (
          <li>
            <p className="font-medium">Your e-mail address is not verified.</p>
            {challenge.field}
            <Button
              size="sm"
              variant="secondary"
              className="mt-1.5"
              busy={resend.isPending}
              onClick={() => void onResend()}
            >
              Resend verification e-mail
            </Button>
          </li>
        )}
        {identityVerified ? null : (
          <li>
            <p className="font-medium">Your identity is not verified.</p>
            <TextLink to={paths.user.security} className="text-sm">
              Upload an ID document on the Security page
            </TextLink>
          </li>
        )}
      </ul>
    </Card>
  );
}

function defaultsFor(kind: PaymentMethodKind, methodId: string): CreateWithdrawalInput {
  const details: Record<string, string> = {};
  for (const field of withdrawalDetailFields[kind]) details[field] = "";
  return {
    payment_method_id: methodId,
    amount: undefined as unknown as number,
    withdrawal_details: details,
  };
}

function WithdrawalForm({
  method,
  balance,
  onBack,
  onReview,
}: {
  method: PaymentMethodView;
  balance: number | null;
  onBack: () => void;
  onReview: (request: CreateWithdrawalRequest) => void;
}) {
  const fields = withdrawalDetailFields[method.kind];
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    control,
    formState: { errors },
  } = useForm<CreateWithdrawalInput, unknown, CreateWithdrawalRequest>({
    resolver: zodResolver(createWithdrawalSchema),
    defaultValues: defaultsFor(method.kind, method.id),
  });
  useEffect(() => setFocus("amount"), [setFocus]);
  const detailErrors = errors.withdrawal_details as
    | Record<string, { message?: string } | undefined>
    | undefined;

  const onValid = (request: CreateWithdrawalRequest) => {
    // The server has the last word; this only saves a round trip the trader would lose.
    if (balance !== null && request.amount > balance) {
      setError("amount", { type: "balance", message: m.insufficientBalance });
      return;
    }
    const schedule = feeScheduleOf(method, "withdrawal");
    const fee = feeOfDollars(request.amount, schedule);
    if (fee && "problem" in fee) {
      setError("amount", {
        type: "fee",
        message: amountNotAboveFeeMessage(centsFromDollars(request.amount) ?? 0, schedule),
      });
      return;
    }
    // The fee shown goes with the request: the server refuses it if staff changed it since.
    onReview(
      fee ? { ...request, expected_fee: dollarsFromCents(fee.breakdown.fee_cents) } : request,
    );
  };

  return (
    <Card aria-labelledby="withdraw-form-title" className="mt-6">
      <div className="mb-4 flex items-center gap-3">
        <MethodMark method={method} />
        <div className="min-w-0">
          <h2 id="withdraw-form-title" className="text-lg font-semibold">
            Withdraw with {method.name}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {balance === null
              ? "Minimum $1.00."
              : `Available: ${formatUsd(balance)}. Minimum $1.00.`}
          </p>
        </div>
      </div>
      <form noValidate onSubmit={handleSubmit(onValid)} className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Amount (USD)"
          type="number"
          inputMode="decimal"
          min={1}
          step={0.01}
          placeholder="100.00"
          className="sm:col-span-2"
          error={errors.amount?.message}
          {...register("amount", {
            setValueAs: (value: unknown) =>
              value === "" || value === null || value === undefined ? undefined : Number(value),
          })}
        />
        <div className="sm:col-span-2">
          <AmountFeePreview control={control} method={method} direction="withdrawal" />
        </div>
        {fields.map((field) => (
          <TextField
            key={field}
            label={withdrawalFieldLabels[field] ?? field}
            autoComplete="off"
            spellCheck={false}
            className={fields.length === 1 || field === "receiver_address" ? "sm:col-span-2" : ""}
            error={detailErrors?.[field]?.message}
            {...register(`withdrawal_details.${field}`)}
          />
        ))}
        <div className="flex flex-col-reverse gap-2 sm:col-span-2 sm:flex-row sm:justify-between">
          <Button variant="secondary" onClick={onBack}>
            Change method
          </Button>
          <Button type="submit">Continue</Button>
        </div>
      </form>
    </Card>
  );
}

function WithdrawalConfirmation({
  state,
  method,
  request,
  onBack,
  onConfirm,
}: {
  state: WithdrawalState;
  method: PaymentMethodView;
  request: CreateWithdrawalRequest;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const details = Object.entries(request.withdrawal_details).filter(([key]) => key !== "amount");
  // The server computes the same figures with the same function and keeps them on the request.
  const fee = feeOfDollars(request.amount, feeScheduleOf(method, "withdrawal"));
  const breakdown = fee && "breakdown" in fee ? fee.breakdown : null;
  return (
    <Card aria-labelledby="withdraw-confirm-title">
      <h2 id="withdraw-confirm-title" className="text-lg font-semibold">
        Confirm withdrawal
      </h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        Check the details: the whole amount is held from your real balance once you confirm, and the
        amount less any fee is paid out within 24-48 hours.
      </p>
      <dl className="rounded-xl border border-slate-200 px-4 dark:border-navy-700">
        <DetailRow label="Method" value={method.name} />
        {breakdown ? (
          <FeeRows
            direction="withdrawal"
            amount={request.amount}
            fee={dollarsFromCents(breakdown.fee_cents)}
            netAmount={dollarsFromCents(breakdown.net_cents)}
          />
        ) : (
          <DetailRow label="Amount" value={formatUsd(request.amount)} />
        )}
        {details.map(([key, value]) => (
          <DetailRow key={key} label={withdrawalFieldLabels[key] ?? key} value={String(value)} />
        ))}
      </dl>
      {state.error ? <WithdrawalProblemNote error={state.error} /> : null}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="secondary" onClick={onBack} disabled={state.busy}>
          <ArrowLeftIcon className="size-4" />
          Back
        </Button>
        <Button onClick={onConfirm} busy={state.busy}>
          {state.busy ? "Processing..." : "Confirm"}
        </Button>
      </div>
    </Card>
  );
}

function WithdrawalProblemNote({ error }: { error: NonNullable<WithdrawalState["error"]> }) {
  return (
    <div
      role="alert"
      className="mt-4 flex gap-3 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
    >
      <AlertCircleIcon className="size-5 shrink-0" />
      <div className="min-w-0">
        <p className="font-semibold">{error.message}</p>
        {error.problem === "identity" ? (
          <TextLink to={paths.user.security} className="mt-1 inline-block">
            Go to the Security page
          </TextLink>
        ) : null}
        {error.problem === "balance" ? (
          <TextLink to={paths.user.fundWallet} className="mt-1 inline-block">
            Deposit Funds
          </TextLink>
        ) : null}
        {error.problem === "email" ? (
          <p className="mt-1">Use the link in the verification e-mail, or resend it beside.</p>
        ) : null}
      </div>
    </div>
  );
}

function WithdrawalSuccess({ state, onAgain }: { state: WithdrawalState; onAgain: () => void }) {
  const result = state.result;
  return (
    <Card aria-labelledby="withdraw-success-title" className="text-center">
      <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-600 dark:bg-emerald-500/15 dark:text-emerald-300">
        <CheckCircleIcon className="size-8" />
      </div>
      <h2 id="withdraw-success-title" className="mt-4 text-lg font-semibold">
        Withdrawal requested
      </h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">
        {m.withdrawalRequested}
      </p>
      <p className="mx-auto mt-2 max-w-md text-sm font-medium">{m.withdrawalConfirmByEmail}</p>
      {result ? (
        <dl className="mx-auto mt-4 max-w-sm rounded-xl border border-slate-200 px-4 text-left dark:border-navy-700">
          {state.request ? (
            <DetailRow label="Amount" value={formatUsd(state.request.amount)} />
          ) : null}
          <DetailRow label="Reference" value={result.transactionHash} mono />
          {result.accountBalance !== null ? (
            <DetailRow label="Available balance" value={formatUsd(result.accountBalance)} />
          ) : null}
        </dl>
      ) : null}
      <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
        <ButtonLink to={paths.user.transactionHistory} variant="secondary">
          View Transaction History
        </ButtonLink>
        <Button onClick={onAgain}>Make Another Withdrawal</Button>
      </div>
    </Card>
  );
}
