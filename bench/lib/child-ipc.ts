// The child's side of the parent-child protocol of bench/lib/child.ts (startChildProcess):
// each message names a method of the child's api and its params; the reply carries the same
// id and the result or the error. "close" exits once its reply is sent.

interface ChildRequest<Api> {
  id: number;
  method: keyof Api;
  params: unknown;
}

/** Answers the parent's calls with `api`, then tells the parent the child is ready. */
export function serveParentCalls<Api extends object>(api: Api): void {
  process.on("message", (message: ChildRequest<Api>) => {
    const method = api[message.method] as (params: unknown) => Promise<unknown>;
    method(message.params).then(
      (result) => {
        process.send?.({ id: message.id, ok: true, result });
        if (message.method === "close") process.exit(0);
      },
      (error: unknown) =>
        process.send?.({
          id: message.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  process.send?.({ ready: true });
}
