import { readFileSync } from "node:fs";
import { Negotiator } from "@fastify/accept-negotiator";
import { siteContentElementId } from "@tp/domain/app-shell";
import type { SiteContent } from "@tp/domain/site-content";
import type { FastifyReply, FastifyRequest } from "fastify";
import { compressBoth } from "../http/compression.ts";

/**
 * JSON that is safe inside <script>: no "</script>", "<!--" or line separators can end the
 * block early, whatever the operator wrote in the copy.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/**
 * The app shell (index.html) with the site content written into it as a JSON data block
 * (not run as a script, so the Content-Security-Policy's script rule does not apply). The
 * public pages then draw their copy, header and footer on the first render: no request
 * after the JavaScript, no text arriving late and pushing the footer (issue 13 item 8).
 * The content is the one loaded and checked against its schema at start; it changes only
 * with a restart, so the shell and its compressed copies are made once.
 */
export function buildAppShell(indexHtml: string, siteContent: SiteContent): string {
  const block = `<script type="application/json" id="${siteContentElementId}">${jsonForScriptElement(siteContent)}</script>`;
  // A page without a head (a stand-in shell) is left as it is: the app then fetches the copy.
  return indexHtml.replace("</head>", `${block}</head>`);
}

export interface ShellReplies {
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/** The shell in every encoding, sent as the browser's Accept-Encoding prefers. */
export async function prepareAppShell(
  indexHtmlPath: string,
  siteContent: SiteContent,
): Promise<ShellReplies> {
  const html = Buffer.from(buildAppShell(readFileSync(indexHtmlPath, "utf8"), siteContent));
  const { br, gz } = await compressBoth(html);
  const bodies = { br, gzip: gz, identity: html } as const;
  const negotiator = new Negotiator({ supportedValues: ["br", "gzip", "identity"] });
  return {
    send(request, reply) {
      const accepted = request.headers["accept-encoding"];
      const encoding =
        (typeof accepted === "string" && accepted.length > 0
          ? (negotiator.negotiate(accepted.replace(/\*/g, "gzip")) as keyof typeof bodies | null)
          : null) ?? "identity";
      reply
        .header("cache-control", "no-cache")
        .header("vary", "accept-encoding")
        .type("text/html; charset=utf-8");
      if (encoding !== "identity") reply.header("content-encoding", encoding);
      return reply.send(bodies[encoding]);
    },
  };
}
