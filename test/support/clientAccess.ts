// What an enrolled identity sees through the Edge client API, for the access-proof tests (mock and
// real controller alike): log in with its certificate (`POST /edge/client/v1/authenticate?method=cert`,
// mTLS) and list the services it may use (`GET /edge/client/v1/services`).
import https from "node:https";
import { readReply } from "./edgeClient";

export interface IdentityCredentials {
  certificatePem: string;
  privateKeyPem: string;
  /** Trusted CAs for the controller's TLS certificate. */
  caBundlePem: string;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

function call(
  baseUrl: string,
  method: string,
  path: string,
  creds: IdentityCredentials,
  session?: string,
  body?: unknown,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(`/edge/client/v1${path}`, baseUrl),
      {
        method,
        agent: false,
        ca: creds.caBundlePem,
        cert: creds.certificatePem,
        key: creds.privateKeyPem,
        headers: {
          accept: "application/json",
          ...(session ? { "zt-session": session } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => readReply(res).then(resolve, reject),
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Certificate login; the session token, or an Error with the controller's answer. */
export async function certificateLogin(baseUrl: string, creds: IdentityCredentials): Promise<string> {
  const reply = await call(baseUrl, "POST", "/authenticate?method=cert", creds, undefined, {});
  if (reply.status !== 200) throw new Error(`cert login: ${reply.status} ${JSON.stringify(reply.body)}`);
  return String(reply.body.data.token);
}

/** Names of the services the identity sees (with its permissions), after a certificate login. */
export async function visibleServices(
  baseUrl: string,
  creds: IdentityCredentials,
): Promise<{ name: string; permissions: string[] }[]> {
  const session = await certificateLogin(baseUrl, creds);
  const reply = await call(baseUrl, "GET", "/services?limit=500", creds, session);
  if (reply.status !== 200) throw new Error(`GET /services: ${reply.status} ${JSON.stringify(reply.body)}`);
  return (reply.body.data as { name: string; permissions: string[] }[])
    .map((s) => ({ name: s.name, permissions: [...(s.permissions ?? [])].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
