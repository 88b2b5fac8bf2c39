import { type Client, never, type Subscription } from "./stream-client.ts";

export interface SubscriptionRegistry {
  /** Every connected client. */
  readonly clients: Set<Client>;
  /** Each symbol's subscribers, in a list the tick fan-out walks (swap-remove on leave). */
  readonly bySymbol: ReadonlyMap<string, Subscription[]>;
  /** Each signed-in user's clients, for their own trade, balance and notification events. */
  readonly byUser: ReadonlyMap<number, Set<Client>>;
  subscribe(client: Client, symbol: string): void;
  unsubscribe(client: Client, symbol: string): void;
  indexUser(userId: number, client: Client): void;
  unindexUser(userId: number, client: Client): void;
  /** Forgets a closed client: its subscriptions and its user's index entry. */
  remove(client: Client): void;
}

/**
 * Who listens to what: clients, subscribers by symbol and clients by user. `release` is
 * called for a subscription as it leaves, so a tick held for it is dropped too.
 */
export function createSubscriptionRegistry(options: {
  release: (sub: Subscription) => void;
}): SubscriptionRegistry {
  const { release } = options;
  const clients = new Set<Client>();
  const bySymbol = new Map<string, Subscription[]>();
  const byUser = new Map<number, Set<Client>>();

  function subscribe(client: Client, symbol: string) {
    if (client.subscriptions.has(symbol)) return;
    let subs = bySymbol.get(symbol);
    if (!subs) {
      subs = [];
      bySymbol.set(symbol, subs);
    }
    const sub: Subscription = {
      client,
      symbol,
      index: subs.length,
      sentWall: never(),
      sentAt: never(),
      next: 0,
      held: null,
      heldAt: 0,
      releaseAtMs: 0,
    };
    subs.push(sub);
    client.subscriptions.set(symbol, sub);
  }

  function unsubscribe(client: Client, symbol: string) {
    const sub = client.subscriptions.get(symbol);
    if (!sub) return;
    client.subscriptions.delete(symbol);
    release(sub);
    const subs = bySymbol.get(symbol)!;
    const last = subs.pop()!;
    if (last !== sub) {
      subs[sub.index] = last;
      last.index = sub.index;
    }
    if (subs.length === 0) bySymbol.delete(symbol);
  }

  function indexUser(userId: number, client: Client) {
    let set = byUser.get(userId);
    if (!set) {
      set = new Set();
      byUser.set(userId, set);
    }
    set.add(client);
  }

  function unindexUser(userId: number, client: Client) {
    const set = byUser.get(userId);
    set?.delete(client);
    if (set?.size === 0) byUser.delete(userId);
  }

  function remove(client: Client) {
    if (!clients.delete(client)) return;
    for (const symbol of [...client.subscriptions.keys()]) unsubscribe(client, symbol);
    if (client.userId !== null) unindexUser(client.userId, client);
  }

  return { clients, bySymbol, byUser, subscribe, unsubscribe, indexUser, unindexUser, remove };
}
