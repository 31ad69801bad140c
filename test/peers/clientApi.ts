// What a user's device does with the controller's Edge client API (/edge/client/v1), for the
// real-controller suite: enroll an identity (ott with a CSR made by node-forge, or updb with a
// password), log in, and enrol TOTP MFA.
import { Agent, request } from "undici";
import { totp } from "../../mock/edge/totp";
import { generateKeyPairAndCsr } from "../../provider/resources/pem";
import type { RealController } from "./controller";

const CLIENT = "/edge/client/v1";

interface Answer {
  status: number;
  body: any;
}

export class ClientApi {
  private readonly agent: Agent;
  session?: string;

  constructor(private readonly ctrl: Pick<RealController, "url" | "caPem">) {
    this.agent = new Agent({ connect: { ca: ctrl.caPem } });
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    contentType = "application/json",
  ): Promise<Answer> {
    const res = await request(`${this.ctrl.url}${CLIENT}${path}`, {
      method: method as "GET",
      dispatcher: this.agent,
      headers: {
        accept: "application/json",
        ...(this.session ? { "zt-session": this.session } : {}),
        ...(body === undefined ? {} : { "content-type": contentType }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.statusCode, body: parsed };
  }

  private expect(answer: Answer, status: number, what: string): Answer {
    if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  }

  /** ott enrollment: a new key and CSR; the controller signs it. Returns the certificate and key. */
  async enrollOtt(token: string, commonName: string): Promise<{ certPem: string; keyPem: string }> {
    const { csrPem, privateKeyPem } = generateKeyPairAndCsr({ commonName }, 2048);
    const answer = this.expect(
      await this.call("POST", "/enroll/ott", { token, clientCsr: csrPem }),
      200,
      "ott enrollment",
    );
    return { certPem: String(answer.body.data.cert), keyPem: privateKeyPem };
  }

  async enrollUpdb(token: string, password: string): Promise<void> {
    this.expect(
      await this.call("POST", `/enroll/updb?token=${encodeURIComponent(token)}`, { password }),
      200,
      "updb enrollment",
    );
  }

  async login(username: string, password: string): Promise<Answer> {
    this.session = undefined;
    const answer = await this.call("POST", "/authenticate?method=password", { username, password });
    if (answer.status === 200) this.session = String(answer.body.data.token);
    return answer;
  }

  /** Enrols TOTP MFA for the logged-in identity; returns the base32 secret. */
  async enrollTotp(): Promise<string> {
    this.expect(await this.call("POST", "/current-identity/mfa", {}), 201, "MFA enrolment");
    const mfa = this.expect(await this.call("GET", "/current-identity/mfa"), 200, "MFA details");
    const secret = new URL(String(mfa.body.data.provisioningUrl)).searchParams.get("secret");
    if (!secret) throw new Error(`no secret in the provisioning URL: ${JSON.stringify(mfa.body)}`);
    this.expect(
      await this.call("POST", "/current-identity/mfa/verify", { code: totp(secret) }),
      200,
      "MFA verify",
    );
    return secret;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
