/** The live socket's limits (PRODUCT.md D10): every queue and rate a client can fill. */

/** At most this many ticks per second per symbol reach one client. */
export const client_ticks_per_second_max = 4;
/** The window `client_ticks_per_second_max` counts over. */
export const rate_window_ms = 1000;
/**
 * Delivery jitter forgiven: a tick that arrives up to this much before its one-second slot
 * opens still goes out at once, provided its own `at` is a full second after the tick sent
 * four before it (so the source really is at ≤ 4/s and only delivery wobbled). Any other
 * early tick waits, and goes out exactly when its slot opens.
 */
export const tick_jitter_ms = 50;
/** A client that has this much unsent data is too slow to keep: it is dropped. */
export const client_send_buffer_bytes_max = 1024 * 1024;
export const client_message_bytes_max = 4096;
export const client_symbols_max = 50;
export const heartbeat_interval_ms = 30_000;
/** A client with this many unhandled messages is flooding: it is closed. */
export const client_queued_messages_max = 100;
