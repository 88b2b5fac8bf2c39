import { zodResolver } from "@hookform/resolvers/zod";
import {
  type BroadcastRequest,
  broadcast_message_length_max,
  broadcast_title_length_max,
  broadcastSchema,
  engagementMessages,
} from "@tp/domain/engagement";
import { useForm, useWatch } from "react-hook-form";
import { useSearchParams } from "react-router";
import { z } from "zod";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { PageTitle } from "../../components/page-title.tsx";
import { useRunAdminAction } from "../api/use-run-admin-action.ts";

/** POST /admin/notifications (PRODUCT.md D7): one trader, or every trader without user_id. */
export const broadcastPath = "/admin/notifications";

/**
 * The form's own shape (the user id is typed as text), checked with the contract's rules and
 * messages; `toBroadcast` turns it into the request.
 */
const broadcastFormSchema = z
  .object({
    title: broadcastSchema.shape.title,
    message: broadcastSchema.shape.message,
    audience: z.enum(["all", "one"]),
    user_id: z.string().trim(),
  })
  .superRefine((values, context) => {
    if (values.audience !== "one") return;
    const id = Number(values.user_id);
    if (values.user_id === "" || !Number.isSafeInteger(id) || id <= 0) {
      context.addIssue({
        code: "custom",
        path: ["user_id"],
        message: engagementMessages.userIdInvalid,
      });
    }
  });
type BroadcastFormInput = z.input<typeof broadcastFormSchema>;
type BroadcastFormValues = z.output<typeof broadcastFormSchema>;

export function toBroadcast(values: BroadcastFormValues): BroadcastRequest {
  return {
    title: values.title,
    message: values.message,
    ...(values.audience === "one" ? { user_id: Number(values.user_id) } : {}),
  };
}

/**
 * Notifications (PRODUCT.md D7): staff send a message to one trader or to all of them. It
 * lands in their notification list, moves their bell's badge live and goes out by Web Push.
 * `?user_id=` pre-selects one trader.
 */
export function AdminNotificationsPage() {
  const [params] = useSearchParams();
  const presetUser = params.get("user_id") ?? "";
  const run = useRunAdminAction();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<BroadcastFormInput, unknown, BroadcastFormValues>({
    resolver: zodResolver(broadcastFormSchema),
    defaultValues: {
      title: "",
      message: "",
      audience: presetUser ? "one" : "all",
      user_id: presetUser,
    },
  });
  const audience = useWatch({ control, name: "audience" });
  const message = useWatch({ control, name: "message" }) ?? "";

  const onValid = async (values: BroadcastFormValues) => {
    const outcome = await run(
      { method: "POST", path: broadcastPath, body: toBroadcast(values) },
      { success: "Notification sent", failure: "The notification could not be sent" },
    );
    if (outcome === true) reset({ ...values, title: "", message: "" });
  };

  const messageErrorId = "broadcast-message-error";
  return (
    <>
      <PageTitle
        title="Notifications"
        description="Send a notification to one trader or to every trader. It also goes out as a push message."
      />
      <Card className="max-w-2xl">
        <form noValidate onSubmit={handleSubmit(onValid)} className="flex flex-col gap-5">
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
              Send to
            </legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
              <label className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  value="all"
                  className="size-4 accent-brand-600"
                  {...register("audience")}
                />
                All traders
              </label>
              <label className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  value="one"
                  className="size-4 accent-brand-600"
                  {...register("audience")}
                />
                One trader
              </label>
            </div>
          </fieldset>
          {audience === "one" ? (
            <TextField
              label="User id"
              inputMode="numeric"
              autoComplete="off"
              className="max-w-xs"
              hint="The number shown on the Users page."
              error={errors.user_id?.message}
              {...register("user_id")}
            />
          ) : null}
          <TextField
            label="Title"
            maxLength={broadcast_title_length_max}
            autoComplete="off"
            error={errors.title?.message}
            {...register("title")}
          />
          <div>
            <label
              htmlFor="broadcast-message"
              className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200"
            >
              Message
            </label>
            <textarea
              id="broadcast-message"
              rows={5}
              maxLength={broadcast_message_length_max}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={errors.message ? messageErrorId : undefined}
              className={`block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs focus:outline-none focus:ring-2 focus:ring-brand-500/40 dark:bg-navy-900 dark:text-slate-100 ${
                errors.message
                  ? "border-red-500"
                  : "border-slate-300 focus:border-brand-500 dark:border-navy-600"
              }`}
              {...register("message")}
            />
            <div className="mt-1.5 flex justify-between gap-3 text-xs">
              <span id={messageErrorId} className="font-medium text-red-600 dark:text-red-400">
                {errors.message?.message}
              </span>
              <span className="text-slate-500 tabular-nums dark:text-slate-400">
                {message.length}/{broadcast_message_length_max}
              </span>
            </div>
          </div>
          <div className="flex justify-end border-t border-slate-200 pt-4 dark:border-navy-700">
            <Button type="submit" busy={isSubmitting}>
              {audience === "one" ? "Send to this trader" : "Send to all traders"}
            </Button>
          </div>
        </form>
      </Card>
    </>
  );
}
