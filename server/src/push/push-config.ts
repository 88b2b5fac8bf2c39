import { z } from "zod";

/**
 * Web Push settings (PRODUCT.md D8). Without VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY the keys
 * are generated on first start and kept in DATA_DIR; several processes must then share one
 * DATA_DIR or be given the keys, or a browser subscribed through one would be refused
 * pushes signed by another.
 */
const base64url = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, `must be base64url (${what})`)
    .refine(
      (value) => Buffer.from(value, "base64url").length === bytes,
      `must be ${bytes} bytes, base64url (${what})`,
    );

export const pushConfigShape = {
  /** The VAPID public key: an uncompressed P-256 point (65 bytes), base64url. */
  VAPID_PUBLIC_KEY: base64url(65, "an uncompressed P-256 public key").optional(),
  /** The VAPID private key: the P-256 scalar (32 bytes), base64url. */
  VAPID_PRIVATE_KEY: base64url(32, "a P-256 private key").optional(),
  /** The contact push services see (RFC 8292 "sub"): mailto: or https:. Default: MAIL_FROM. */
  VAPID_SUBJECT: z
    .string()
    .refine(
      (value) => /^mailto:[^\s@]+@[^\s@]+$/.test(value) || /^https:\/\/\S+$/.test(value),
      "must be a mailto: address or an https:// URL",
    )
    .optional(),
  /**
   * Accept push endpoints on this machine (http://localhost, http://127.0.0.1): for tests
   * with a local push service only. Off, only https:// endpoints on public host names are
   * accepted, so a trader cannot make the server call into its own network.
   */
  PUSH_ALLOW_LOOPBACK_ENDPOINTS: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .transform((value) => value === "true" || value === "1")
    .default(false),
};

export function refinePushConfig(
  config: { VAPID_PUBLIC_KEY?: string | undefined; VAPID_PRIVATE_KEY?: string | undefined },
  context: z.RefinementCtx,
) {
  if ((config.VAPID_PUBLIC_KEY === undefined) !== (config.VAPID_PRIVATE_KEY === undefined)) {
    context.addIssue({
      code: "custom",
      path: [config.VAPID_PUBLIC_KEY === undefined ? "VAPID_PUBLIC_KEY" : "VAPID_PRIVATE_KEY"],
      message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all",
    });
  }
}
