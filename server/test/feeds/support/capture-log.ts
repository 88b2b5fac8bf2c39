import { Writable } from "node:stream";
import Fastify, { type FastifyBaseLogger } from "fastify";

export interface CapturedLog {
  /** The server's own kind of logger (pino), writing JSON lines to memory. */
  logger: FastifyBaseLogger;
  text(): string;
  entries(): Array<Record<string, unknown> & { level: number; msg: string }>;
}

export const warn_level = 40;

export function captureLog(): CapturedLog {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = Fastify({ logger: { level: "debug", stream } }).log;
  return {
    logger,
    text: () => chunks.join(""),
    entries: () =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line)),
  };
}
