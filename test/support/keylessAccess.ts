// The controller side of keyless login, declared through the provider as an admin would (the engine
// must be configured with an admin's settings first): an external JWT signer for the test issuer, an
// auth policy that allows only its tokens (with `secondFactor`, the signer is also its required
// secondary factor), and one identity per token subject (externalId): an admin unless listed in
// `nonAdmins`.
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
  options: {
    prefix: string;
    audience: string;
    identities: Record<string, string>;
    secondFactor?: boolean;
    nonAdmins?: string[];
  },
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
    ...(options.secondFactor ? { secondary: { requireExtJwtSigner: signer.id } } : {}),
  });
  const made: Created[] = [
    { kind: "ExternalJwtSigner", ...signer },
    { kind: "AuthPolicy", ...policy },
  ];
  for (const [name, externalId] of Object.entries(options.identities)) {
    const identity = await createChecked("Identity", {
      name,
      type: "User",
      isAdmin: !options.nonAdmins?.includes(name),
      authPolicyId: policy.id,
      externalId,
    } as Props);
    made.push({ kind: "Identity", ...identity });
  }
  return made;
}
