/**
 * Links the operator configures (help center, ticket form) are shown only when they are
 * http(s) or mailto URLs, so a content file can never inject a javascript: link.
 */
export function safeExternalUrl(value: string | null): string | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:"
      ? url.href
      : null;
  } catch {
    return null;
  }
}
