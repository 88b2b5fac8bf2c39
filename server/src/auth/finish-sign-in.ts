import { browserLabel } from "@tp/domain/browser-label";
import type { AppContext } from "../app-context.ts";
import type { Queryable } from "../db/database.ts";
import { queueEmail } from "../mail/outbox.ts";
import { newDeviceSignInEmail } from "../mail/templates.ts";
import type { UserRow } from "../users/users.ts";
import { createSession, sessionLifetimesOf } from "./sessions.ts";
import { recordSignIn, type SignInClient } from "./sign-in-history.ts";

/**
 * The last step of every successful sign-in (password alone, after its second factor, or a
 * passkey): the session, its line in the sign-in history and, from a device the account had
 * not used before, the new-device e-mail, all in the caller's transaction (a session never
 * exists without its history line, nor an e-mail about a sign-in that rolled back). The
 * caller kicks the outbox after commit when `newDevice` is true.
 */
export async function startSignedInSession(
  context: AppContext,
  transaction: Queryable,
  user: Pick<UserRow, "id" | "email">,
  client: SignInClient,
  at: Date,
): Promise<{ token: string; sessionId: number; newDevice: boolean }> {
  const { config } = context;
  const session = await createSession(transaction, user.id, at, client, sessionLifetimesOf(config));
  const { newDevice } = await recordSignIn(transaction, {
    userId: user.id,
    at,
    client,
    result: "succeeded",
    sessionId: session.sessionId,
  });
  if (newDevice) {
    const email = newDeviceSignInEmail({
      publicUrl: config.PUBLIC_URL,
      siteName: context.siteContent.company.name,
      to: user.email,
      at,
      browser: browserLabel(client.userAgent),
      ip: client.ip,
    });
    await queueEmail(transaction, email, at);
  }
  return { ...session, newDevice };
}

/** `startSignedInSession` in a transaction of its own, kicking the outbox after commit. */
export async function finishSignIn(
  context: AppContext,
  user: Pick<UserRow, "id" | "email">,
  client: SignInClient,
): Promise<{ token: string; sessionId: number }> {
  const { database, clock } = context;
  const started = await database.transaction((transaction) =>
    startSignedInSession(context, transaction, user, client, clock.now()),
  );
  if (started.newDevice) context.outbox.kick();
  return { token: started.token, sessionId: started.sessionId };
}
