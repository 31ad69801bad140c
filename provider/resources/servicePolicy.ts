// ServicePolicy: which identities may dial (use) or bind (host) which services, optionally only while
// they pass posture checks. Roles are sets (the controller sorts them); `semantic` is always sent
// (AllOf by default), so the server never picks it.
import { z } from "zod";
import type { Props, ResourceContext, ResourceDefinition } from "../resource";
import { listOf } from "./edgeCollection";
import { rolePolicy } from "./rolePolicy";

const policy = rolePolicy({
  kind: "ServicePolicy",
  path: "service-policies",
  description:
    "An OpenZiti service policy: the identities selected by `identityRoles` may dial (`type: Dial`) or bind " +
    "(`type: Bind`, i.e. host) the services selected by `serviceRoles`, while they pass the posture checks " +
    "selected by `postureCheckRoles`.",
  roles: {
    identityRoles: "Identities the policy applies to",
    serviceRoles: "Services the policy grants",
    postureCheckRoles: "Posture checks the identities must pass",
  },
  extra: {
    type: z
      .enum(["Dial", "Bind"])
      .describe("Dial: the identities may use the services. Bind: the identities may host them."),
  },
});
export const ServicePolicyInputs = policy.inputs;
export type ServicePolicyInputs = z.output<typeof ServicePolicyInputs>;
const { collection, body, outputs } = policy;

/**
 * PUT, then read back. A change of `type` clears the posture check roles on real controllers (v1.5.0,
 * v1.6.0), even those sent in the same request; a second PUT, with the type unchanged, keeps them.
 */
async function update(ctx: ResourceContext, id: string, _olds: Props, news: ServicePolicyInputs) {
  await collection.put(ctx, news, id, body(news));
  let server = await collection.require(ctx, news, id);
  if (news.postureCheckRoles.length > 0 && listOf(server.postureCheckRoles).length === 0) {
    await collection.put(ctx, news, id, body(news));
    server = await collection.require(ctx, news, id);
  }
  return outputs(server);
}

export const servicePolicy = {
  // PUT (name, type and semantic required); update re-sends what a change of type cleared.
  ...policy.definition,
  outputs: z.object(policy.displays),
  update,
} satisfies ResourceDefinition<ServicePolicyInputs>;
