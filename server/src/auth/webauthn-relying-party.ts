/**
 * Who we are to a WebAuthn authenticator: the RP ID a passkey is bound to and the page
 * origins whose ceremonies we accept.
 *
 * The RP ID is the host name of PUBLIC_URL, always: it is what binds a passkey to this
 * platform (the authenticator signs its hash, and a browser offers a passkey only to pages
 * whose host is the RP ID or below it), so it must never follow a request header, or a
 * proxy at another address could mint passkeys for its own name.
 *
 * The accepted origins are an explicit list made per request: PUBLIC_URL's origin, and the
 * address the request itself was sent to (as the stream's `isSameOrigin` accepts it) only
 * when that address's host is the RP ID or a subdomain of it, e.g. http://localhost:5173
 * while PUBLIC_URL says http://localhost:3000. Such a page could use the passkey anyway (the
 * browser allows it); any other Host, whatever a client sends, adds nothing.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

export function relyingPartyFor(
  publicUrl: string,
  name: string,
  request: { protocol: string; host: string | undefined },
): RelyingParty {
  const publicOrigin = new URL(publicUrl);
  const id = publicOrigin.hostname;
  const origins = [publicOrigin.origin];
  const own = ownOrigin(request);
  if (own && own.origin !== publicOrigin.origin && withinRelyingParty(own.hostname, id)) {
    origins.push(own.origin);
  }
  return { id, name, origins };
}

function ownOrigin(request: { protocol: string; host: string | undefined }): URL | null {
  if (request.host === undefined || (request.protocol !== "http" && request.protocol !== "https")) {
    return null;
  }
  const candidate = `${request.protocol}://${request.host}`;
  if (!URL.canParse(candidate)) return null;
  const url = new URL(candidate);
  // A Host header with a path, user or query is not an address a page was served from.
  if (url.origin === "null" || `${url.protocol}//${url.host}` !== candidate.toLowerCase()) {
    return null;
  }
  return url;
}

function withinRelyingParty(hostname: string, relyingPartyId: string): boolean {
  return hostname === relyingPartyId || hostname.endsWith(`.${relyingPartyId}`);
}
