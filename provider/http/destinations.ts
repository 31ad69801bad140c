// Where a credential may be sent: the one rule for every URL the provider sends a password, a session
// or bearer token, a JWT or a client certificate to, whether the user configured it (apiUrl, tokenUrl,
// edgeUrl, edgeUrls, searchUrl, an identity file's ztAPI/ztAPIs) or a server named it (the nodes of
// `GET /controllers`, the CI's OIDC token request URL). Settings that break it fail `check` naming
// the setting (config.ts); a URL a server names that breaks it is skipped with a warning (cluster.ts).
// TLS is verified for every one of them alike (client.ts: the system roots plus frontdoor:caBundle).

/**
 * Why `value` may not receive credentials, or undefined when it may: an http(s) URL without user
 * name or password in it, and plain http only to a loopback host unless `allowPlainHttp` (the user's
 * frontdoor:allowPlainHttp) accepts that credentials travel in clear. With `base` (a base URL that
 * paths are appended to) a query string or a fragment is refused too.
 */
export function credentialDestinationProblem(
  value: string,
  allowPlainHttp: boolean,
  base = true,
): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute http(s) URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `must be an http(s) URL, not ${url.protocol.replace(/:$/, "")}`;
  if (base && (url.search || value.includes("?")))
    return "must not have a query string (paths are appended to it)";
  if (base && (url.hash || value.includes("#"))) return "must not have a fragment";
  if (url.username || url.password) return "must not carry credentials: use the credential settings";
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowPlainHttp)
    return (
      `uses plain http to ${url.hostname}: credentials would travel in clear. Use https, ` +
      "or set frontdoor:allowPlainHttp true (FRONTDOOR_ALLOW_PLAIN_HTTP) to accept that"
    );
  return undefined;
}

/** A URL for a message: without the user name and password it may carry (refused, but never shown). */
export function shownUrl(value: string): string {
  try {
    const url = new URL(value);
    if (!url.username && !url.password) return value;
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return value;
  }
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: names that never leave the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === "::1" ||
    host === "0:0:0:0:0:0:0:1"
  );
}
