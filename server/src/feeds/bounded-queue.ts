/**
 * The buffer between a socket and the feed's consumer. Bounded so a slow consumer can't
 * grow memory without limit: when full, the oldest item goes (a fresher price is worth
 * more than a stale one) and `onDrop` is told. One consumer at a time.
 */
export class BoundedQueue<T> {
  readonly capacity: number;
  readonly #items: Array<T | undefined>;
  readonly #onDrop: () => void;
  #head = 0;
  #size = 0;
  #closed = false;
  #waiter: ((item: T | undefined) => void) | undefined;

  constructor(capacity: number, onDrop: () => void) {
    if (!(Number.isSafeInteger(capacity) && capacity > 0)) {
      throw new Error(`BoundedQueue: capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.#items = new Array(capacity);
    this.#onDrop = onDrop;
  }

  get length(): number {
    return this.#size;
  }

  push(item: T): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter(item);
      return;
    }
    if (this.#size === this.capacity) {
      this.#items[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.capacity;
      this.#size -= 1;
      this.#onDrop();
    }
    this.#items[(this.#head + this.#size) % this.capacity] = item;
    this.#size += 1;
  }

  /** The oldest item, waiting for one if empty; `undefined` once closed. */
  next(): Promise<T | undefined> {
    if (this.#waiter) throw new Error("BoundedQueue: only one consumer may wait at a time");
    if (this.#closed) return Promise.resolve(undefined);
    if (this.#size > 0) {
      const item = this.#items[this.#head];
      this.#items[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.capacity;
      this.#size -= 1;
      return Promise.resolve(item);
    }
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Stops the queue: buffered items are discarded and a waiting consumer gets `undefined`. */
  close(): void {
    this.#closed = true;
    this.#items.fill(undefined);
    this.#size = 0;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(undefined);
  }
}
