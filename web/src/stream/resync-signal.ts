/**
 * Counts the moments the page may have missed live events: the socket came back after a
 * drop, or the server said its event bus was down (a `refetch` message). Whatever keeps
 * state from the stream (the chart's candles, the query cache) reads again when it moves.
 */
export class ResyncSignal {
  #epoch = 0;
  readonly #listeners = new Set<() => void>();

  epoch(): number {
    return this.#epoch;
  }

  bump(): void {
    this.#epoch += 1;
    for (const listener of this.#listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}
