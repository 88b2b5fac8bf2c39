import { useQuery } from "@tanstack/react-query";
import {
  type AccountClosure,
  accountClosureMessages,
  closureWaitText,
} from "@tp/domain/account-closure";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast/headless";
import {
  accountClosureQueryOptions,
  useRequestAccountClosureMutation,
} from "../../api/account-closure.ts";
import { errorMessage, fieldErrorsOf } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { Modal } from "../../components/modal.tsx";

const failedToClose = "Your account could not be closed. Please try again";

/** What the dialog promises, in the order it happens (the README says the same). */
const whatHappens = (retentionYears: number) => [
  "Trading and deposits stop at once. Deposits awaiting payment are cancelled. Withdrawals stay available.",
  "Your open trades settle as usual; pending deposits and withdrawals finish. Any winnings must be withdrawn.",
  "Then the account closes: you can no longer sign in, and you get one last e-mail confirming it.",
  "Your practice balance is forfeited. Closing cannot be undone.",
  "Your password, two-factor settings, passkeys, notifications and the network addresses of your sign-ins are erased; your phone number and username are replaced.",
  `Anti-money-laundering law requires us to keep your name, country, e-mail address, identity documents, trades, deposits, withdrawals and account entries for ${retentionYears} years after closing; then they are erased too.`,
];

function CloseAccountDialog({
  retentionYears,
  onClose,
}: {
  retentionYears: number;
  onClose: () => void;
}) {
  const request = useRequestAccountClosureMutation();
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length === 0) {
      setPasswordError(accountClosureMessages.passwordRequired);
      return;
    }
    try {
      const reply = await request.mutateAsync({ password });
      toast.success(reply.message ?? accountClosureMessages.requested);
      onClose();
    } catch (error) {
      const fieldError = fieldErrorsOf(error).password?.[0];
      setPasswordError(fieldError);
      if (!fieldError) toast.error(errorMessage(error, failedToClose));
    }
  };

  return (
    <Modal
      title="Close your account"
      onClose={onClose}
      dismissible={!request.isPending}
      footer={
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={request.isPending}>
            Keep my account
          </Button>
          <Button variant="danger" type="submit" form="close-account-form" busy={request.isPending}>
            Close my account
          </Button>
        </div>
      }
    >
      <form id="close-account-form" noValidate onSubmit={(event) => void submit(event)}>
        <ul className="mb-4 list-disc space-y-2 pl-5 text-sm text-slate-700 dark:text-slate-300">
          {whatHappens(retentionYears).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          Real money must be withdrawn first: a closed account cannot hold money.
        </p>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={passwordError}
          onChange={(event) => {
            setPassword(event.target.value);
            setPasswordError(undefined);
          }}
        />
      </form>
    </Modal>
  );
}

function ClosingState({ closure }: { closure: AccountClosure }) {
  return (
    <div role="status" className="text-sm text-slate-700 dark:text-slate-300">
      <p className="mb-2 font-semibold">{accountClosureMessages.alreadyRequested}.</p>
      {closure.waiting_for.length > 0 ? (
        <>
          <p className="mb-1">It closes once:</p>
          <ul className="list-disc space-y-1 pl-5">
            {closure.waiting_for.map((wait) => (
              <li key={wait}>{closureWaitText[wait]}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>Nothing is left to finish: it closes within a few minutes.</p>
      )}
    </div>
  );
}

/** Settings › Personal Data: close the account (issue 14 item 7). */
export function AccountClosureSection() {
  const closure = useQuery(accountClosureQueryOptions());
  const [open, setOpen] = useState(false);
  return (
    <Card className="mt-6">
      <section aria-labelledby="close-account-heading">
        <h2 id="close-account-heading" className="mb-1 font-semibold">
          Close account
        </h2>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          Stop trading here for good. Open trades and pending withdrawals finish first.
        </p>
        {closure.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Loading...
          </p>
        ) : closure.isError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            The account's state could not be loaded.{" "}
            <button
              type="button"
              className="font-semibold underline"
              onClick={() => void closure.refetch()}
            >
              Try again
            </button>
          </p>
        ) : closure.data.status === "open" ? (
          <Button variant="danger" onClick={() => setOpen(true)}>
            Close account
          </Button>
        ) : (
          <ClosingState closure={closure.data} />
        )}
      </section>
      {open && closure.data ? (
        <CloseAccountDialog
          retentionYears={closure.data.record_retention_years}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </Card>
  );
}
