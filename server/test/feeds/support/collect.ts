/** Helpers that fail fast (seconds, not the 30 s test timeout) when a feed stalls. */

export async function within<T>(
  promise: Promise<T>,
  timeoutMs: number,
  what: string | (() => string),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const description = typeof what === "string" ? what : what();
      reject(new Error(`timed out after ${timeoutMs} ms: ${description}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function take<T>(
  iterator: AsyncIterator<T>,
  count: number,
  timeoutMs = 3_000,
): Promise<T[]> {
  const items: T[] = [];
  const collect = async () => {
    while (items.length < count) {
      const result = await iterator.next();
      if (result.done) throw new Error(`iterator ended after ${items.length} of ${count} items`);
      items.push(result.value);
    }
    return items;
  };
  return within(collect(), timeoutMs, () => `${count} items (got ${items.length})`);
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
