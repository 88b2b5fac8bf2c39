import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";

/** One message as the SMTP server received it. */
export interface CapturedEmail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

/**
 * Test support: a real SMTP server on 127.0.0.1 that keeps what it receives, so tests see
 * the e-mails the platform really sent and can follow their links.
 */
export class SmtpCapture {
  readonly messages: CapturedEmail[] = [];
  #server: SMTPServer;
  #waiters: Array<() => void> = [];
  port = 0;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData: (stream: SMTPServerDataStream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw,
            subject: decodeHeader(raw, "Subject"),
            text: decodeTextPart(raw),
          });
          for (const wake of this.#waiters.splice(0)) wake();
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.port = (this.#server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits for the first message to `to` matching `subject` (a real wait, bounded). */
  async waitFor(to: string, subject: RegExp, timeoutMs = 15_000): Promise<CapturedEmail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(
        (message) => message.to.includes(to) && subject.test(message.subject),
      );
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`no e-mail to ${to} matching ${subject} within ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 250));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The first URL in the mail's text that starts with `prefix`. */
export function linkIn(email: CapturedEmail, prefix: string): string {
  const match = email.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${email.text}`);
  return match;
}

function unfold(raw: string): string {
  return raw.replace(/\r\n[ \t]+/g, " ");
}

function decodeHeader(raw: string, name: string): string {
  const headers = unfold(raw.split(/\r\n\r\n/)[0] ?? "");
  const line = headers
    .split(/\r\n/)
    .find((header) => header.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  const value = line ? line.slice(name.length + 1).trim() : "";
  // RFC 2047 encoded words, as nodemailer writes non-ASCII subjects.
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_all, encoding: string, text: string) =>
    encoding.toLowerCase() === "b"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_all, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The text/plain part of a (possibly multipart) message, transfer-decoded. */
function decodeTextPart(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`) : [raw];
  const textPart =
    parts.find((part) => /content-type:\s*text\/plain/i.test(part)) ?? parts[0] ?? "";
  const [headerBlock = "", ...bodyBlocks] = textPart.split(/\r\n\r\n/);
  const body = bodyBlocks.join("\r\n\r\n");
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headerBlock)?.[1]?.toLowerCase();
  if (encoding === "base64")
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return body;
}
