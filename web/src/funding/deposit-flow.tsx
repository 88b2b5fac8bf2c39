import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { amountNotAboveFeeMessage, feeScheduleOf } from "@tp/domain/fees";
import {
  createDepositSchema,
  fundingMessages as m,
  type PaymentMethodView,
  tooManyAwaitingDepositsMessage,
  transaction_hash_length_max,
  usesWalletAddress,
  type WalletData,
} from "@tp/domain/funding";
import { receiptAccept, receiptContentTypes } from "@tp/domain/funding-files";
import { centsFromDollars, formatUsd } from "@tp/domain/money";
import { coinAmount, coinNetworkOf, networkWarning, paymentUri } from "@tp/domain/payment-uri";
import {
  type FormEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast/headless";
import { useSearchParams } from "react-router";
import type { z } from "zod";
import { cancelDeposit } from "../api/cancel-deposit.ts";
import { depositQueryKey, fetchDeposit } from "../api/cashier.ts";
import { errorMessage, fieldErrorsOf } from "../api/client.ts";
import { createDeposit } from "../api/create-deposit.ts";
import { uploadReceipt } from "../api/deposit-receipt.ts";
import { fetchWallet } from "../api/payment-method-wallet.ts";
import { paymentMethodsQueryOptions } from "../api/payment-methods.ts";
import { newIdempotencyKey } from "../api/place-trade.ts";
import { transactionHistoryRootKey } from "../api/transaction-history.ts";
import { Button } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { TextField } from "../components/form-fields.tsx";
import { CheckCircleIcon, InfoIcon } from "../components/icons.tsx";
import { TextLink } from "../components/text-link.tsx";
import { formatDateTime } from "../components/trade-format.ts";
import { paths } from "../paths.ts";
import { CopyButton } from "./copy-button.tsx";
import {
  cancelOpenDeposit,
  type DepositApi,
  type DepositContext,
  submitDepositAmount,
  submitReceipt,
} from "./deposit-actions.ts";
import {
  type DepositEvent,
  type DepositState,
  type DepositStep,
  depositReducer,
  initialDepositState,
  type OpenDeposit,
} from "./deposit-machine.ts";
import { DetailRow, labelOfDetailKey } from "./detail-row.tsx";
import { AmountFeePreview, FeeRows, feeOfDollars } from "./fee-summary.tsx";
import { checkUploadFile } from "./file-check.ts";
import { ArrowLeftIcon, UploadIcon } from "./funding-icons.tsx";
import { MethodList, MethodMark } from "./method-list.tsx";
import { QrCode } from "./qr-code.tsx";
import { StepIndicator } from "./step-indicator.tsx";

const stepLabels = ["Method", "Amount", "Payment details", "Payment proof", "Done"] as const;

const stepIndex: Record<DepositStep, number> = {
  SELECT_METHOD: 0,
  AMOUNT_INPUT: 1,
  WALLET_DETAILS: 2,
  BANK_DETAILS: 2,
  UPLOAD_RECEIPT: 3,
  SUCCESS: 4,
};

/** The deposit flow's calls, wired to the API; the transaction history refetches after each. */
function useDepositApi(): DepositApi {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const refreshHistory = () =>
      void queryClient.invalidateQueries({ queryKey: transactionHistoryRootKey });
    return {
      createDeposit: async (request, key) => {
        const created = await createDeposit(request, key);
        refreshHistory();
        return created;
      },
      fetchWallet: (methodId) => fetchWallet(methodId),
      cancelDeposit: async (id, key) => {
        await cancelDeposit(id, key);
        refreshHistory();
      },
      uploadReceipt: async (id, receipt, hash) => {
        const message = await uploadReceipt(id, receipt, hash);
        refreshHistory();
        return message;
      },
      newIdempotencyKey,
    };
  }, [queryClient]);
}

/**
 * Fund wallet (SPEC §2 "Funding flow", §4 "Deposit flow", §8): choose a method, enter the
 * amount, pay to the details shown, upload the payment proof; staff then review it.
 */
export function DepositFlow() {
  const methods = useQuery(paymentMethodsQueryOptions());
  const [state, dispatch] = useReducer(depositReducer, initialDepositState);
  const api = useDepositApi();
  const [capReached, setCapReached] = useState(false);
  const notify = {
    success: (text: string) => void toast.success(text),
    error: (text: string) => void toast.error(text),
    capReached: () => setCapReached(true),
    feeChanged: () => void methods.refetch(),
  };
  const context: DepositContext = { api, notify, dispatch };
  const list = methods.data ?? [];
  useResumeDeposit(methods.data, state, dispatch);

  return (
    <div>
      <StepIndicator label="Deposit steps" steps={stepLabels} current={stepIndex[state.step]} />
      {capReached && state.step === "SELECT_METHOD" ? (
        <div
          role="alert"
          className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100"
        >
          <p>{tooManyAwaitingDepositsMessage}</p>
          <p className="mt-2">
            <TextLink to={paths.user.transactionHistory}>
              Continue or cancel a deposit in your Transaction History
            </TextLink>
          </p>
        </div>
      ) : null}
      {state.step === "SELECT_METHOD" || state.step === "AMOUNT_INPUT" ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Card aria-labelledby="deposit-methods-title">
            <h2 id="deposit-methods-title" className="mb-1 text-lg font-semibold">
              Choose a payment method
            </h2>
            <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
              Pay by crypto wallet, bank transfer or money transfer service.
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
                label="Payment methods"
                methods={list}
                isUsable={(method) => method.is_available}
                selectedId={state.method?.id ?? null}
                unavailableId={state.unavailableMethodId}
                onChoose={(method) => dispatch({ type: "CHOOSE_METHOD", method })}
                noMethods={{
                  title: m.noDepositMethods,
                  reason: m.noDepositMethodsReason,
                }}
              />
            )}
          </Card>
          {state.step === "AMOUNT_INPUT" && state.method ? (
            <AmountForm
              key={state.method.id}
              state={state}
              method={state.method}
              onBack={() => dispatch({ type: "BACK" })}
              onSubmit={(amount) => void submitDepositAmount(context, state, list, amount)}
            />
          ) : (
            <Card className="hidden lg:block">
              <div className="flex h-full flex-col items-center justify-center gap-3 py-6 text-center text-sm text-slate-500 dark:text-slate-400">
                <InfoIcon className="size-8 text-slate-400" />
                <p>Choose a payment method to enter the amount.</p>
              </div>
            </Card>
          )}
        </div>
      ) : null}
      {state.step === "WALLET_DETAILS" && state.method && state.wallet && state.deposit ? (
        <WalletDetails
          method={state.method}
          wallet={state.wallet}
          deposit={state.deposit}
          cancelling={state.busy === "cancelling"}
          onBack={() => void cancelOpenDeposit(context, state)}
          onPaid={() => dispatch({ type: "PAYMENT_MADE" })}
        />
      ) : null}
      {state.step === "BANK_DETAILS" && state.method && state.deposit ? (
        <BankDetails
          method={state.method}
          deposit={state.deposit}
          onBack={() => dispatch({ type: "BACK" })}
          onPaid={() => dispatch({ type: "PAYMENT_MADE" })}
        />
      ) : null}
      {state.step === "UPLOAD_RECEIPT" && state.deposit ? (
        <ReceiptForm
          deposit={state.deposit}
          uploading={state.busy === "uploading"}
          onBack={() => dispatch({ type: "BACK" })}
          onSubmit={(receipt, hash) => submitReceipt(context, state, receipt, hash)}
        />
      ) : null}
      {state.step === "SUCCESS" ? (
        <DepositSuccess
          key={state.deposit?.id}
          deposit={state.deposit}
          onAgain={() => dispatch({ type: "START_OVER" })}
        />
      ) : null}
    </div>
  );
}

/**
 * `?deposit=ID` (the history's "Continue"): reopens that deposit at its payment-proof step
 * while it awaits payment, with its method's wallet for the way back to the details; a
 * deposit no longer awaiting payment says why (expired, already sent) and the flow starts
 * at the method list. The address is cleaned afterwards so a reload does not reopen it.
 */
function useResumeDeposit(
  methods: readonly PaymentMethodView[] | undefined,
  state: DepositState,
  dispatch: (event: DepositEvent) => void,
) {
  const [params, setParams] = useSearchParams();
  const requested = Number(params.get("deposit"));
  const depositId = Number.isSafeInteger(requested) && requested > 0 ? requested : null;
  const handled = useRef<number | null>(null);
  useEffect(() => {
    if (depositId === null || methods === undefined || handled.current === depositId) return;
    if (state.step !== "SELECT_METHOD" || state.busy !== null) return;
    handled.current = depositId;
    const forget = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("deposit");
          return next;
        },
        { replace: true },
      );
    void (async () => {
      try {
        const deposit = await fetchDeposit(depositId);
        if (deposit.status !== "awaiting_payment") {
          toast.error(
            deposit.status === "expired" ? m.depositExpired : m.depositNotAwaitingPayment,
          );
          return;
        }
        const method = methods.find((item) => item.id === deposit.payment_method_id);
        if (!method) {
          toast.error(m.methodCurrentlyUnavailable);
          return;
        }
        const wallet = usesWalletAddress(method.kind)
          ? await fetchWallet(method.id).catch(() => null)
          : null;
        dispatch({
          type: "RESUMED",
          method,
          deposit: {
            id: deposit.id,
            transactionHash: deposit.transaction_hash,
            amount: deposit.amount,
          },
          wallet: wallet && wallet.wallet_address.length > 0 ? wallet : null,
        });
      } catch (error) {
        toast.error(errorMessage(error, m.depositFailed));
      } finally {
        forget();
      }
    })();
  }, [depositId, methods, state.step, state.busy, dispatch, setParams]);
}

const amountSchema = createDepositSchema.pick({ amount: true });

type AmountValues = z.input<typeof amountSchema>;

function AmountForm({
  state,
  method,
  onBack,
  onSubmit,
}: {
  state: DepositState;
  method: PaymentMethodView;
  onBack: () => void;
  onSubmit: (amount: number) => void;
}) {
  const busy = state.busy === "creating" || state.busy === "loading_wallet";
  const {
    register,
    handleSubmit,
    setFocus,
    setError,
    control,
    formState: { errors },
  } = useForm<AmountValues, unknown, { amount: number }>({
    resolver: zodResolver(amountSchema),
    defaultValues: { amount: state.amount ?? undefined },
  });
  // Choosing a method moves the trader on to the amount (on a phone, down the page).
  useEffect(() => setFocus("amount"), [setFocus]);
  const schedule = feeScheduleOf(method, "deposit");
  const onValid = ({ amount }: { amount: number }) => {
    // A fee that would take the whole amount: the server refuses it with the same words.
    const fee = feeOfDollars(amount, schedule);
    if (fee && "problem" in fee) {
      setError("amount", {
        type: "fee",
        message: amountNotAboveFeeMessage(centsFromDollars(amount) ?? 0, schedule),
      });
      return;
    }
    onSubmit(amount);
  };

  return (
    <Card aria-labelledby="deposit-amount-title">
      <div className="mb-4 flex items-center gap-3">
        <MethodMark method={method} />
        <div className="min-w-0">
          <h2 id="deposit-amount-title" className="text-lg font-semibold">
            Deposit with {method.name}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Minimum $1.00, in US dollars.
          </p>
        </div>
      </div>
      <form noValidate onSubmit={handleSubmit(onValid)}>
        <TextField
          label="Amount (USD)"
          type="number"
          inputMode="decimal"
          min={1}
          step={0.01}
          placeholder="100.00"
          disabled={busy}
          error={errors.amount?.message}
          {...register("amount", {
            setValueAs: (value: unknown) =>
              value === "" || value === null || value === undefined ? undefined : Number(value),
          })}
        />
        <div className="mt-3">
          <AmountFeePreview control={control} method={method} direction="deposit" />
        </div>
        <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
          <Button variant="secondary" onClick={onBack} disabled={busy}>
            Change method
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
            {busy ? "Processing..." : "Fund Account"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ReferenceNote({ deposit }: { deposit: OpenDeposit }) {
  return (
    <>
      {deposit.fee !== undefined && deposit.netAmount !== undefined ? (
        <FeeRows
          direction="deposit"
          amountLabel="Amount to send"
          amount={deposit.amount}
          fee={deposit.fee}
          netAmount={deposit.netAmount}
        />
      ) : (
        <DetailRow label="Amount to send" value={formatUsd(deposit.amount)} />
      )}
      <DetailRow
        label="Payment reference"
        value={deposit.transactionHash}
        copyMessage={m.copiedToClipboard}
        mono
      />
    </>
  );
}

function StepActions({
  onBack,
  backBusy = false,
  backLabel = "Back",
  children,
}: {
  onBack: () => void;
  backBusy?: boolean;
  backLabel?: string;
  children: ReactNode;
}) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
      <Button variant="secondary" onClick={onBack} busy={backBusy}>
        <ArrowLeftIcon className="size-4" />
        {backLabel}
      </Button>
      {children}
    </div>
  );
}

function WalletDetails({
  method,
  wallet,
  deposit,
  cancelling,
  onBack,
  onPaid,
}: {
  method: PaymentMethodView;
  wallet: WalletData;
  deposit: OpenDeposit;
  cancelling: boolean;
  onBack: () => void;
  onPaid: () => void;
}) {
  const network = coinNetworkOf(method.id);
  const price = wallet.coin_price;
  // The amount in the coin only from a live price (the server sends none when simulated).
  const inCoin =
    network && price
      ? coinAmount(centsFromDollars(deposit.amount)!, price.price, network.decimals)
      : null;
  const uri = paymentUri(method.id, wallet.wallet_address, inCoin);
  return (
    <Card aria-labelledby="wallet-details-title">
      <div className="mb-4 flex items-center gap-3">
        <MethodMark method={method} />
        <div className="min-w-0">
          <h2 id="wallet-details-title" className="text-lg font-semibold">
            Payment details
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {inCoin && network
              ? `Send ${inCoin} ${network.coin} (${formatUsd(deposit.amount)}) to the address below.`
              : `Send ${formatUsd(deposit.amount)} in ${method.name} to the address below.`}
          </p>
        </div>
      </div>
      {network ? (
        <p
          role="note"
          data-testid="network-warning"
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-200"
        >
          {networkWarning(network)}
        </p>
      ) : null}
      <div className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
        <div className="flex justify-center md:block">
          <div className="rounded-xl border border-slate-200 bg-white p-2 dark:border-navy-700">
            <QrCode
              value={uri}
              label={
                inCoin
                  ? `QR code to pay ${inCoin} ${network?.coin ?? ""} to the ${method.name} address`
                  : `QR code of the ${method.name} address`
              }
            />
            <p data-testid="payment-uri" className="sr-only">
              {uri}
            </p>
          </div>
        </div>
        <div className="min-w-0">
          <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
            Wallet address
          </p>
          <div className="flex items-center gap-2 rounded-lg border border-slate-300 bg-slate-50 p-2 pl-3 dark:border-navy-600 dark:bg-navy-950">
            <code
              data-testid="wallet-address"
              className="min-w-0 flex-1 break-all font-mono text-sm text-slate-900 dark:text-slate-100"
            >
              {wallet.wallet_address}
            </code>
            {/* SPEC §2: "Address copied!", and the icon changes for 2 seconds. */}
            <CopyButton
              text={wallet.wallet_address}
              label="wallet address"
              message={m.addressCopied}
            />
          </div>
          <dl className="mt-3">
            {inCoin && network ? (
              <DetailRow
                label={`Amount in ${network.coin}`}
                value={inCoin}
                copyMessage={m.copiedToClipboard}
                mono
              />
            ) : null}
            <ReferenceNote deposit={deposit} />
          </dl>
          {inCoin && network && price ? (
            <p data-testid="coin-price" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              Worked out at 1 {network.coin} = {price.price.toLocaleString("en-US")}{" "}
              {price.quote_currency}, the live {feedNames[price.source] ?? price.source} price of{" "}
              {formatDateTime(price.at)}.
            </p>
          ) : null}
          {wallet.instructions.length > 0 ? (
            <div className="mt-3 rounded-lg bg-brand-600/5 p-3 dark:bg-brand-500/10">
              <p className="mb-1 text-sm font-semibold">Instructions</p>
              <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
                {wallet.instructions.map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat; their place is their identity
                  <li key={index}>{line}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </div>
      <StepActions onBack={onBack} backBusy={cancelling}>
        <Button onClick={onPaid} disabled={cancelling}>
          I've Made The Payment
        </Button>
      </StepActions>
    </Card>
  );
}

const bankFields = [
  ["bank_name", "Bank Name"],
  ["account_name", "Account Name"],
  ["account_number", "Account Number"],
  ["swift_code", "SWIFT Code"],
] as const;

/** The labelled lines of a bank or money-transfer method (SPEC §3). */
function bankDetailLines(method: PaymentMethodView): Array<[string, string]> {
  const details = method.additional_details;
  if (method.kind === "bank") {
    const lines: Array<[string, string]> = [];
    for (const [key, label] of bankFields) {
      const value = details[key]?.trim();
      if (value) lines.push([label, value]);
    }
    for (const [key, value] of Object.entries(details)) {
      if (!bankFields.some(([known]) => known === key) && value.trim()) {
        lines.push([labelOfDetailKey(key), value]);
      }
    }
    return lines;
  }
  return Object.entries(details)
    .filter(([, value]) => value.trim().length > 0)
    .map(([key, value]) => [labelOfDetailKey(key), value]);
}

function BankDetails({
  method,
  deposit,
  onBack,
  onPaid,
}: {
  method: PaymentMethodView;
  deposit: OpenDeposit;
  onBack: () => void;
  onPaid: () => void;
}) {
  const title = method.kind === "bank" ? "Bank Transfer Details" : "Western Union Details";
  return (
    <Card aria-labelledby="bank-details-title">
      <div className="mb-4 flex items-center gap-3">
        <MethodMark method={method} />
        <div className="min-w-0">
          <h2 id="bank-details-title" className="text-lg font-semibold">
            {title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Send {formatUsd(deposit.amount)} using these details, with the payment reference.
          </p>
        </div>
      </div>
      <dl className="rounded-xl border border-slate-200 px-4 dark:border-navy-700">
        {bankDetailLines(method).map(([label, value]) => (
          <DetailRow key={label} label={label} value={value} copyMessage={m.copiedToClipboard} />
        ))}
        <ReferenceNote deposit={deposit} />
      </dl>
      <StepActions onBack={onBack}>
        <Button onClick={onPaid}>Transfer</Button>
      </StepActions>
    </Card>
  );
}

function ReceiptForm({
  deposit,
  uploading,
  onBack,
  onSubmit,
}: {
  deposit: OpenDeposit;
  uploading: boolean;
  onBack: () => void;
  onSubmit: (receipt: File, hash: string) => Promise<{ ok: true } | { ok: false; error: unknown }>;
}) {
  const fileId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ receipt?: string; transaction_hash?: string }>({});
  const hash = deposit.transactionHash;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    const fileProblem = await checkUploadFile(file, receiptContentTypes, {
      required: m.receiptRequired,
      type: m.receiptType,
    });
    if (fileProblem) next.receipt = fileProblem;
    if (hash.trim().length === 0) next.transaction_hash = m.transactionHashRequired;
    else if (hash.length > transaction_hash_length_max) {
      next.transaction_hash = m.transactionHashMismatch;
    }
    setErrors(next);
    if (next.receipt || next.transaction_hash || file === null) {
      if (next.receipt) fileRef.current?.focus();
      return;
    }
    const outcome = await onSubmit(file, hash);
    if (!outcome.ok) {
      const fields = fieldErrorsOf(outcome.error);
      setErrors({ receipt: fields.receipt?.[0], transaction_hash: fields.transaction_hash?.[0] });
    }
  };

  return (
    <Card aria-labelledby="receipt-title">
      <h2 id="receipt-title" className="text-lg font-semibold">
        Upload Payment Proof
      </h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        A screenshot or PDF of the payment of {formatUsd(deposit.amount)}. Staff check it against
        the reference before crediting your real account.
      </p>
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <div>
          <label
            htmlFor={fileId}
            className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200"
          >
            Payment receipt
          </label>
          <label
            htmlFor={fileId}
            className={`flex cursor-pointer flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors ${
              errors.receipt
                ? "border-red-400 bg-red-50/50 dark:bg-red-500/5"
                : "border-slate-300 hover:border-brand-400 hover:bg-slate-50 dark:border-navy-600 dark:hover:bg-navy-800"
            }`}
          >
            <UploadIcon className="size-7 text-slate-400" />
            <span className="text-sm font-semibold text-slate-800 dark:text-slate-100">
              {file ? file.name : "Choose a file"}
            </span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              Image or PDF (max. 10MB)
            </span>
          </label>
          <input
            ref={fileRef}
            id={fileId}
            type="file"
            accept={receiptAccept}
            className="sr-only"
            aria-invalid={errors.receipt ? true : undefined}
            aria-describedby={errors.receipt ? `${fileId}-error` : undefined}
            disabled={uploading}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setErrors((current) => ({ ...current, receipt: undefined }));
            }}
          />
          {errors.receipt ? (
            <p
              id={`${fileId}-error`}
              className="mt-1.5 text-xs font-medium text-red-600 dark:text-red-400"
            >
              {errors.receipt}
            </p>
          ) : null}
        </div>
        <TextField
          label="Transaction hash"
          value={hash}
          readOnly
          className="font-mono"
          error={errors.transaction_hash}
          hint="The reference of this deposit; it cannot be changed."
        />
        <StepActions onBack={onBack}>
          <Button type="submit" busy={uploading}>
            Submit Payment Proof
          </Button>
        </StepActions>
      </form>
    </Card>
  );
}

/**
 * The card after the proof is sent. Its words follow the deposit's current state (issue
 * 13): staff's decision arrives as a notification on the live stream, which reloads the
 * deposit (stream-provider.tsx); it is also polled while under review, for a stream that is
 * down, so an approval or a rejection shows here without a reload either way.
 */
function DepositSuccess({
  deposit,
  onAgain,
}: {
  deposit: OpenDeposit | null;
  onAgain: () => void;
}) {
  const current = useQuery({
    queryKey: depositQueryKey(deposit?.id ?? 0),
    queryFn: ({ signal }) => fetchDeposit(deposit!.id, signal),
    enabled: deposit !== null,
    refetchInterval: (query) =>
      query.state.data === undefined || query.state.data.status === "under_review"
        ? review_poll_ms
        : false,
    refetchOnWindowFocus: true,
  });
  const status = current.data?.status ?? "under_review";
  const what = deposit
    ? `Your deposit of ${formatUsd(deposit.amount)} (${deposit.transactionHash}) `
    : "Your deposit ";
  const confirmed = status === "confirmed";
  const refused = status === "rejected";
  return (
    <Card aria-labelledby="deposit-success-title" className="text-center">
      <div
        className={`mx-auto flex size-14 items-center justify-center rounded-full ${
          refused
            ? "bg-red-100 text-red-600 dark:bg-red-500/15 dark:text-red-300"
            : "bg-emerald-100 text-emerald-600 dark:bg-emerald-500/15 dark:text-emerald-300"
        }`}
      >
        {refused ? <InfoIcon className="size-8" /> : <CheckCircleIcon className="size-8" />}
      </div>
      <h2 id="deposit-success-title" className="mt-4 text-lg font-semibold" aria-live="polite">
        {confirmed ? "Deposit confirmed" : refused ? "Deposit rejected" : m.depositSubmitted}
      </h2>
      <p
        data-testid="deposit-status-text"
        data-status={status}
        className="mx-auto mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400"
      >
        {what}
        {confirmed
          ? "has been confirmed and credited to your real account. "
          : refused
            ? `was rejected${current.data?.rejection_reason ? `: ${current.data.rejection_reason}` : ""}. Nothing was credited. `
            : "is under review. Your real balance is credited once staff confirm the payment. "}
        Follow it in your{" "}
        <TextLink to={paths.user.transactionHistory}>Transaction History</TextLink>.
      </p>
      <Button className="mt-6" onClick={onAgain}>
        Make Another Deposit
      </Button>
    </Card>
  );
}

/** The feeds a live coin price can come from, as their makers write them. */
const feedNames: Record<string, string> = { binance: "Binance", finnhub: "Finnhub" };

/** How often the success card asks whether staff have decided. */
const review_poll_ms = 15_000;
