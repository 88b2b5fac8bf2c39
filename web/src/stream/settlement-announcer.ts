import type { TradeView } from "@tp/domain/api";
import toast from "react-hot-toast/headless";
import { settlementMessage } from "../components/trade-format.ts";

/** Ids remembered to keep one toast per trade; the oldest are forgotten past this. */
const announced_ids_max = 1_000;

/**
 * Says "won / lost / tie" once per trade, whichever path learns of it first: the socket's
 * trade event, or (while the socket is down) a polled history page in which a trade seen
 * open is now settled.
 */
export class SettlementAnnouncer {
  readonly #announced = new Set<number>();
  readonly #seenOpen = new Set<number>();

  /** A trade as some reply or event shows it now. */
  observe(trade: TradeView, { fromEvent }: { fromEvent: boolean }): void {
    if (trade.status === "open") {
      this.#remember(this.#seenOpen, trade.id);
      return;
    }
    const wasOpen = this.#seenOpen.delete(trade.id);
    // A polled page shows old settled trades too: only one seen open here is news.
    if (!fromEvent && !wasOpen) return;
    if (this.#announced.has(trade.id)) return;
    this.#remember(this.#announced, trade.id);
    const message = settlementMessage(trade);
    // SPEC §9's toast durations apply (success 2 s, error and blank 4 s); the open-trades
    // row keeps showing the result for a while after the toast has gone.
    const options = { id: `settled-${trade.id}` };
    if (trade.status === "won") toast.success(message, options);
    else if (trade.status === "lost") toast.error(message, options);
    else toast(message, options);
  }

  #remember(set: Set<number>, id: number): void {
    set.add(id);
    if (set.size > announced_ids_max) {
      const oldest = set.values().next().value;
      if (oldest !== undefined) set.delete(oldest);
    }
  }
}
