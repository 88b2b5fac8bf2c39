// The reference for place-trade's HTTP cost (issue 16): a minimal Fastify server with one
// route that takes the same JSON body and headers and answers 201 with a reply of the same
// shape, no database. Started by bench/place-trade.ts in its own process; it sends its port
// over IPC and exits when the parent disconnects.
import Fastify from "fastify";

const app = Fastify({ logger: false });
let tradeId = 0;
app.post("/api/v1/place-trade", async (request, reply) => {
  const body = request.body as Record<string, unknown>;
  if (typeof request.headers.authorization !== "string") {
    return reply.code(401).send({ status: "error", message: "Unauthenticated" });
  }
  tradeId += 1;
  return reply.code(201).send({
    status: "success",
    message: "Trade placed",
    data: { trade: { id: tradeId, ...body, status: "open" } },
  });
});
const address = await app.listen({ host: "127.0.0.1", port: 0 });
process.send?.({ ready: new URL(address).port });
process.on("disconnect", () => {
  void app.close().then(() => process.exit(0));
});
