import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { useQuery } from "@tanstack/react-query";
import { passkey_name_length_max, passkeyNameSchema } from "@tp/domain/passkey-api";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast/headless";
import { errorMessage } from "../../api/client.ts";
import {
  passkeysQueryOptions,
  useAddPasskeyMutation,
  useRemovePasskeyMutation,
} from "../../api/passkeys.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { LockIcon } from "../../components/icons.tsx";
import { FailureState, failureDetails } from "../../components/query-states.tsx";
import { formatDateTime } from "../../components/trade-format.ts";

const texts = {
  added: "Passkey added",
  addFailed: "The passkey was not added",
  removed: "Passkey removed",
  removeFailed: "The passkey was not removed",
  loadFailed: "Your passkeys could not be loaded",
  unsupported: "This browser cannot create passkeys.",
};

/**
 * Security page: the account's passkeys (WebAuthn). A passkey signs in without a password
 * and counts as the second factor; adding or removing one needs a fresh confirmation
 * (step-up), which a passkey already on the account can give.
 */
export function PasskeysSection() {
  const passkeys = useQuery(passkeysQueryOptions());
  const list = passkeys.data ?? [];
  const add = useAddPasskeyMutation(list.length > 0);
  const remove = useRemovePasskeyMutation();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | undefined>();
  const supported = browserSupportsWebAuthn();

  const onAdd = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    try {
      const reply = await add.mutateAsync(parsed.data);
      setName("");
      toast.success(reply.message ?? texts.added);
    } catch (error) {
      toast.error(errorMessage(error, texts.addFailed));
    }
  };

  const onRemove = async (id: number) => {
    try {
      const reply = await remove.mutateAsync(id);
      toast.success(reply.message ?? texts.removed);
    } catch (error) {
      toast.error(errorMessage(error, texts.removeFailed));
    }
  };

  return (
    <Card aria-labelledby="passkeys-title">
      <div className="mb-5 flex gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-600/10 text-brand-600 dark:text-brand-400">
          <LockIcon className="size-5" />
        </div>
        <div>
          <h2 id="passkeys-title" className="font-semibold">
            Passkeys
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Sign in with your fingerprint, face or device PIN instead of a password. A passkey also
            counts as your second factor.
          </p>
        </div>
      </div>
      {passkeys.isError ? (
        <FailureState
          title={texts.loadFailed}
          details={failureDetails(passkeys.error)}
          onRetry={() => void passkeys.refetch()}
          retrying={passkeys.isFetching}
        />
      ) : null}
      {list.length > 0 ? (
        <ul
          aria-label="Your passkeys"
          className="mb-5 divide-y divide-slate-200 dark:divide-slate-800"
        >
          {list.map((passkey) => (
            <li key={passkey.id} className="flex items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium">{passkey.name}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  Added {formatDateTime(passkey.created_at)} ·{" "}
                  {passkey.last_used_at
                    ? `Last used ${formatDateTime(passkey.last_used_at)}`
                    : "Never used"}
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Remove passkey ${passkey.name}`}
                busy={remove.isPending && remove.variables === passkey.id}
                onClick={() => onRemove(passkey.id)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : passkeys.isSuccess ? (
        <p className="mb-5 text-sm text-slate-600 dark:text-slate-400">No passkeys yet.</p>
      ) : null}
      {supported ? (
        <form
          noValidate
          onSubmit={onAdd}
          className="flex flex-col gap-3 sm:flex-row sm:items-start"
        >
          <TextField
            label="Passkey name"
            placeholder="e.g. Laptop"
            maxLength={passkey_name_length_max}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={nameError}
            className="sm:flex-1"
          />
          <Button type="submit" busy={add.isPending} className="sm:mt-7">
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">{texts.unsupported}</p>
      )}
    </Card>
  );
}
