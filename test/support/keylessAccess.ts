// The controller side of keyless login, declared through the provider as an admin would (the engine
// must be configured with an admin's settings first): an external JWT signer for the test issuer, an
// auth policy that allows only its tokens, and one admin identity per token subject (externalId).
import type { Props } from "../../provider/resource";
import { createChecked } from "./engine";
import type { JwtIssuer } from "./jwtIssuer";

export interface Created {
  kind: string;
  id: string;
  outs: Props;
}

export async function declareKeylessAccess(
  issuer: JwtIssuer,
  options: { prefix: string; audience: string; identities: Record<string, string> },
): Promise<Created[]> {
  const signer = await createChecked("ExternalJwtSigner", {
    name: `${options.prefix}ci-issuer`,
    issuer: issuer.url,
    audience: options.audience,
    jwksEndpoint: issuer.jwksUrl,
    // Where clients (and the provider's refusal messages) find the issuer's discovery document.
    externalAuthUrl: issuer.url,
    claimsProperty: "sub",
    useExternalId: true,
  });
  const policy = await createChecked("AuthPolicy", {
    name: `${options.prefix}pipelines-only-jwt`,
    primary: {
      updb: { allowed: false },
      cert: { allowed: false },
      extJwt: { allowed: true, allowedSigners: [signer.id] },
    },
  });
  const made: Created[] = [
    { kind: "ExternalJwtSigner", ...signer },
    { kind: "AuthPolicy", ...policy },
  ];
  for (const [name, externalId] of Object.entries(options.identities)) {
    const identity = await createChecked("Identity", {
      name,
      type: "User",
      isAdmin: true,
      authPolicyId: policy.id,
      externalId,
    } as Props);
    made.push({ kind: "Identity", ...identity });
  }
  return made;
}
