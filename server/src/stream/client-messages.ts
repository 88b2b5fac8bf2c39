import { findAsset } from "@tp/domain/catalogue";
import { findSession, type SessionLifetimes } from "../auth/sessions.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/database.ts";
import type { ClientWriter } from "./client-writer.ts";
import type { Client } from "./stream-client.ts";
import { client_symbols_max } from "./stream-limits.ts";
import type { SubscriptionRegistry } from "./subscription-registry.ts";

/**
 * Handles one message from a client: ping, the auth handshake (the token travels in a
 * message, never in the URL; a signed-in socket gets the user's own events), subscribe and
 * unsubscribe. Messages of one client are handled one after another (see `accept`).
 */
export async function handleClientMessage(
  hub: {
    database: Database;
    clock: Clock;
    sessionLifetimes: SessionLifetimes;
    registry: SubscriptionRegistry;
    writer: ClientWriter;
  },
  client: Client,
  raw: string,
): Promise<void> {
  const { database, clock, registry } = hub;
  const { sendJson } = hub.writer;
  const { clients } = registry;
  let message: { type?: unknown; token?: unknown; symbols?: unknown };
  try {
    message = JSON.parse(raw);
  } catch {
    sendJson(client, { type: "error", message: "Messages must be JSON" });
    return;
  }
  if (typeof message !== "object" || message === null) {
    sendJson(client, { type: "error", message: "Messages must be JSON objects" });
    return;
  }
  switch (message.type) {
    case "ping":
      sendJson(client, { type: "pong" });
      return;
    case "auth": {
      const token = typeof message.token === "string" ? message.token : "";
      const session = await findSession(database, token, clock.now(), hub.sessionLifetimes);
      if (!session) {
        sendJson(client, { type: "error", message: "Invalid or expired token" });
        return;
      }
      if (!clients.has(client)) return; // closed while the session was looked up
      if (client.userId !== null) registry.unindexUser(client.userId, client);
      client.userId = session.userId;
      client.token = token;
      client.sessionId = session.sessionId;
      registry.indexUser(session.userId, client);
      sendJson(client, { type: "auth", status: "ok" });
      return;
    }
    case "subscribe":
    case "unsubscribe": {
      const symbols = Array.isArray(message.symbols) ? message.symbols : null;
      if (!symbols || symbols.some((symbol) => typeof symbol !== "string" || !findAsset(symbol))) {
        sendJson(client, {
          type: "error",
          message: "symbols must be a list of catalogue symbols",
        });
        return;
      }
      if (!clients.has(client)) return;
      for (const symbol of symbols as string[]) {
        if (message.type === "subscribe") {
          if (client.subscriptions.size >= client_symbols_max && !client.subscriptions.has(symbol))
            break;
          registry.subscribe(client, symbol);
        } else registry.unsubscribe(client, symbol);
      }
      sendJson(client, { type: "subscribed", symbols: [...client.subscriptions.keys()] });
      return;
    }
    default:
      sendJson(client, { type: "error", message: "Unknown message type" });
  }
}
