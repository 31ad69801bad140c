// The access test program (5 services, 10 identities, 3 edge routers, a posture check, and policies
// with #attr, @id, #all, AllOf and AnyOf roles, Dial and Bind) created through the provider's host
// entry points, and the comparison of a computed access matrix with what the controller answers for
// itself: `GET /identities/{id}/services?policyType=dial|bind` and `GET /identities/{id}/policy-advice/{serviceId}`;
// and the compiled audit command run against the mock, as a pipeline step runs it.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import type { MockServer } from "../mock/server";
import type { AccessMatrix } from "../provider/audit/access";
import type { Props } from "../provider/resource";
import type { EdgeReply } from "./support/edgeClient";
import { createChecked } from "./support/engine";

/** Raw management API calls, as the mock's test client and the real controller's admin make them. */
export interface AdminApi {
  call(method: string, path: string): Promise<EdgeReply>;
}

export interface AccessProgram {
  identities: Record<string, string>;
  services: Record<string, string>;
  routers: Record<string, string>;
  postureCheck: string;
}

const IDENTITY_ATTRIBUTES: Record<string, string[]> = {
  alice: ["eng", "payments"],
  bob: ["eng"],
  carol: ["payments"],
  dave: ["ops"],
  erin: ["ops", "eng"],
  frank: [],
  grace: ["contractor"],
  heidi: ["hosts"],
  ivan: ["hosts", "payments"],
  judy: ["eng", "payments", "ops"],
};

const SERVICE_ATTRIBUTES: Record<string, string[]> = {
  web: ["web"],
  db: ["db", "payments"],
  ledger: ["payments"],
  metrics: ["ops"],
  wiki: [],
};

/** Creates the program; names are prefixed so they do not meet other tests' objects. */
export async function createAccessProgram(prefix: string): Promise<AccessProgram> {
  const create = async (kind: string, inputs: Props) => (await createChecked(kind, inputs)).id;
  const program: AccessProgram = { identities: {}, services: {}, routers: {}, postureCheck: "" };
  for (const [name, roleAttributes] of Object.entries(IDENTITY_ATTRIBUTES))
    program.identities[name] = await create("Identity", {
      name: `${prefix}${name}`,
      type: "Device",
      roleAttributes,
    });
  for (const [name, roleAttributes] of Object.entries(SERVICE_ATTRIBUTES))
    program.services[name] = await create("Service", { name: `${prefix}${name}`, roleAttributes });
  for (const [name, roleAttributes] of [
    ["east", ["east"]],
    ["west", ["west"]],
    ["edge", ["east", "public"]],
  ] as const)
    program.routers[name] = await create("EdgeRouter", {
      name: `${prefix}${name}`,
      roleAttributes: [...roleAttributes],
    });
  program.postureCheck = await create("PostureCheck", {
    name: `${prefix}mfa`,
    typeId: "MFA",
    roleAttributes: ["mfa"],
  });
  const { identities: i, services: s, routers: r } = program;
  const policy = (
    name: string,
    type: string,
    semantic: string,
    identityRoles: string[],
    serviceRoles: string[],
    postureCheckRoles: string[] = [],
  ) =>
    create("ServicePolicy", {
      name: `${prefix}${name}`,
      type,
      semantic,
      identityRoles,
      serviceRoles,
      postureCheckRoles,
    });
  await policy("pay-dial", "Dial", "AllOf", ["#eng", "#payments"], ["#payments"], ["#mfa"]);
  await policy("ops-dial", "Dial", "AnyOf", ["#ops", "#contractor"], ["#ops", "#web"]);
  await policy("wiki-all", "Dial", "AllOf", ["#all"], [`@${s.wiki}`]);
  await policy("web-hosts", "Bind", "AllOf", ["#hosts"], ["#web"]);
  await policy("db-hosts", "Bind", "AnyOf", [`@${i.frank}`, "#payments"], ["#db"]);
  await policy("ledger-eng", "Dial", "AllOf", [`@${i.bob}`, "#eng"], [`@${s.ledger}`]);
  const erp = (name: string, semantic: string, identityRoles: string[], edgeRouterRoles: string[]) =>
    create("EdgeRouterPolicy", { name: `${prefix}${name}`, semantic, identityRoles, edgeRouterRoles });
  await erp("eng-east", "AllOf", ["#eng"], ["#east"]);
  await erp("hosts-ops-west", "AnyOf", ["#hosts", "#ops"], [`@${r.west}`]);
  await erp("frank-all", "AllOf", [`@${i.frank}`], ["#all"]);
  const serp = (name: string, semantic: string, serviceRoles: string[], edgeRouterRoles: string[]) =>
    create("ServiceEdgeRouterPolicy", { name: `${prefix}${name}`, semantic, serviceRoles, edgeRouterRoles });
  await serp("all-east-public", "AllOf", ["#all"], ["#east", "#public"]);
  await serp("pay-web-west", "AnyOf", ["#payments", "#web"], ["#west"]);
  return program;
}

/** Service ids an identity has by type in the matrix. */
function matrixServices(matrix: AccessMatrix, identityId: string, type: "dial" | "bind"): string[] {
  return matrix.services
    .filter((s) => s[type].some((g) => g.identity.id === identityId))
    .map((s) => s.service.id)
    .sort();
}

async function data(api: AdminApi, path: string): Promise<any> {
  const reply = await api.call("GET", path);
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

/**
 * Where the matrix and the controller disagree (empty when they agree): every identity's dial and bind
 * service lists, and for each grant of the given identities the policy advice (allowed, common routers).
 */
export async function disagreements(
  api: AdminApi,
  matrix: AccessMatrix,
  identityIds: string[],
): Promise<string[]> {
  const found: string[] = [];
  const all: { id: string }[] = await data(api, "/identities?limit=500");
  for (const { id } of all) {
    for (const type of ["dial", "bind"] as const) {
      const listed = (
        (await data(api, `/identities/${id}/services?policyType=${type}&limit=500`)) as { id: string }[]
      )
        .map((s) => s.id)
        .sort();
      const computed = matrixServices(matrix, id, type);
      if (JSON.stringify(listed) !== JSON.stringify(computed))
        found.push(
          `identity ${id} ${type}: controller ${JSON.stringify(listed)}, matrix ${JSON.stringify(computed)}`,
        );
    }
  }
  for (const s of matrix.services) {
    for (const identityId of identityIds) {
      const dial = s.dial.find((g) => g.identity.id === identityId);
      const bind = s.bind.find((g) => g.identity.id === identityId);
      const advice = await data(api, `/identities/${identityId}/policy-advice/${s.service.id}`);
      const where = `advice ${identityId} -> ${s.service.name}`;
      if (!!advice.isDialAllowed !== !!dial) found.push(`${where}: isDialAllowed ${advice.isDialAllowed}`);
      if (!!advice.isBindAllowed !== !!bind) found.push(`${where}: isBindAllowed ${advice.isBindAllowed}`);
      const grant = dial ?? bind;
      if (!grant) continue;
      const common = ((advice.commonRouters ?? []) as { id: string }[]).map((r) => r.id).sort();
      const computed = grant.edgeRouters.map((r) => r.id).sort();
      if (JSON.stringify(common) !== JSON.stringify(computed))
        found.push(`${where}: common routers ${JSON.stringify(common)}, matrix ${JSON.stringify(computed)}`);
    }
  }
  return found;
}

const run = promisify(execFile);
const AUDIT = path.resolve(__dirname, "..", "bin", "provider", "tools", "auditCli.js");

export type Audit = (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

/** The compiled audit command with the given environment (connection settings), as a pipeline step runs it. */
export function auditWith(settings: Record<string, string>): Audit {
  return async (...args) => {
    const env = { ...process.env, ...settings };
    try {
      const { stdout, stderr } = await run(process.execPath, [AUDIT, ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error: any) {
      return { code: error.code as number, stdout: String(error.stdout), stderr: String(error.stderr) };
    }
  };
}

/** The audit command against the mock's Edge API. */
export function auditOn(mock: MockServer): Audit {
  return auditWith({
    ZITI_EDGE_URL: mock.url,
    ZITI_USERNAME: mock.credentials.edgeUsername,
    ZITI_PASSWORD: mock.credentials.edgePassword,
  });
}
