// The SDK's public types are plain TypeScript generated from the zod definitions (sdk/types.generated.ts,
// `npm run schema`): the committed file must be what the generator writes now, and the generated shapes
// must be the types zod itself infers (checked by the compiler when `npm run typecheck` compiles this
// file: a mismatch names the kind or function). Every kind is covered: the map below must list each one.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { z } from "zod";
import type * as certificates from "../provider/functions/certificates";
import type * as enrollment from "../provider/functions/enrollment";
import type * as events from "../provider/functions/events";
import type * as lookups from "../provider/functions/lookups";
import { resourceDefinitions } from "../provider/resources/all";
import { authPolicy } from "../provider/resources/authPolicy";
import { authProvider } from "../provider/resources/authProvider";
import { ca } from "../provider/resources/ca";
import { certificateRequestToken } from "../provider/resources/certificateRequestToken";
import { clientCertificate } from "../provider/resources/clientCertificate";
import { config } from "../provider/resources/config";
import type * as configData from "../provider/resources/configData";
import { configType } from "../provider/resources/configType";
import { customFrontend } from "../provider/resources/customFrontend";
import { edgeRouter } from "../provider/resources/edgeRouter";
import { edgeRouterPolicy } from "../provider/resources/edgeRouterPolicy";
import { externalJwtSigner } from "../provider/resources/externalJwtSigner";
import { identity } from "../provider/resources/identity";
import { keyPair } from "../provider/resources/keyPair";
import { postureCheck } from "../provider/resources/postureCheck";
import { service } from "../provider/resources/service";
import { serviceEdgeRouterPolicy } from "../provider/resources/serviceEdgeRouterPolicy";
import { servicePolicy } from "../provider/resources/servicePolicy";
import { sdkTypesSource } from "../provider/sdkTypes";
import type * as frontdoor from "../sdk";
import type * as G from "../sdk/types.generated";
import { REPO_ROOT } from "./peers";

const DEFS = {
  AuthPolicy: authPolicy,
  AuthProvider: authProvider,
  Ca: ca,
  CertificateRequestToken: certificateRequestToken,
  ClientCertificate: clientCertificate,
  Config: config,
  ConfigType: configType,
  CustomFrontend: customFrontend,
  EdgeRouter: edgeRouter,
  EdgeRouterPolicy: edgeRouterPolicy,
  ExternalJwtSigner: externalJwtSigner,
  Identity: identity,
  KeyPair: keyPair,
  PostureCheck: postureCheck,
  Service: service,
  ServiceEdgeRouterPolicy: serviceEdgeRouterPolicy,
  ServicePolicy: servicePolicy,
};
type Defs = typeof DEFS;

/** Each assignable to the other, with the same keys (across union members). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;
type Keys<T> = T extends unknown ? keyof T : never;
type SameKeys<A, B> = [Keys<A>] extends [Keys<B>] ? ([Keys<B>] extends [Keys<A>] ? true : false) : false;
/** Without index signatures (zod gives an empty object's output one). */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** A resource's state in zod's terms: every key of every input variant, and the outputs. */
type ZodState<S extends z.ZodType, O extends z.ZodType> = Known<
  {
    [K in Keys<z.output<S>>]: z.output<S> extends infer V
      ? V extends unknown
        ? K extends keyof V
          ? V[K]
          : undefined
        : never
      : never;
  } & z.output<O>
>;

type InputsMatch = { [K in keyof Defs]: Same<G.KindTypes[K]["inputs"], z.input<Defs[K]["inputs"]>> };
type StateMatch = {
  [K in keyof Defs]: Same<G.KindTypes[K]["state"], ZodState<Defs[K]["inputs"], Defs[K]["outputs"]>>;
};
/** Compiles only when every entry is true: a `false` fails `npm run typecheck`, naming the entry. */
function allTrue<_T extends { [key: string]: true }>(): void {}

type FunctionsMatch = {
  lookupArgs: Same<G.GetIdentityArgs, z.input<typeof lookups.LookupArgs>>;
  listArgs: Same<G.GetIdentitiesArgs, z.input<typeof lookups.ListArgs>>;
  caLookupArgs: Same<frontdoor.GetCaArgs, z.input<typeof lookups.LookupArgs>>;
  casListArgs: Same<frontdoor.GetCasArgs, z.input<typeof lookups.ListArgs>>;
  casListResult: Same<frontdoor.GetCasResult, { items: frontdoor.LookupResult<"Ca">[] }>;
  caLookupResult: Same<frontdoor.GetCaResult, frontdoor.LookupResult<"Ca">>;
  createCertificateArgs: Same<
    G.CreateCertificateWithTokenArgs,
    z.input<typeof certificates.CreateCertificateWithTokenArgs>
  >;
  createCertificateResult: Same<
    G.CreateCertificateWithTokenResult,
    z.output<typeof certificates.CreateCertificateWithTokenResult>
  >;
  validateTokenArgs: Same<
    G.ValidateCertificateRequestTokenArgs,
    z.input<typeof certificates.ValidateCertificateRequestTokenArgs>
  >;
  validateTokenResult: Same<
    G.ValidateCertificateRequestTokenResult,
    z.output<typeof certificates.ValidateCertificateRequestTokenResult>
  >;
  enrollArgs: Same<G.EnrollIdentityArgs, z.input<typeof enrollment.EnrollIdentityArgs>>;
  enrollResult: Same<G.EnrollIdentityResult, z.output<typeof enrollment.EnrollIdentityResult>>;
  topTalkersArgs: Same<frontdoor.GetTopTalkersArgs, z.input<typeof events.TopTalkersArgs>>;
  topTalkersResult: Same<frontdoor.GetTopTalkersResult, z.output<typeof events.TopTalkersResult>>;
  alertsArgs: Same<frontdoor.SearchAlertsArgs, z.input<typeof events.SearchAlertsArgs>>;
  alertsResult: Same<frontdoor.SearchAlertsResult, z.output<typeof events.SearchAlertsResult>>;
  alert: Same<frontdoor.Alert, z.output<typeof events.Alert>>;
  interceptV1: Same<frontdoor.InterceptV1Data, z.input<typeof configData.InterceptV1Data>>;
  hostV1: Same<frontdoor.HostV1Data, z.input<typeof configData.HostV1Data>>;
  hostV2: Same<frontdoor.HostV2Data, z.input<typeof configData.HostV2Data>>;
  healthCheckAction: Same<frontdoor.HealthCheckAction, z.input<typeof configData.HealthCheckAction>>;
};

describe("the SDK's generated public types", () => {
  it("are what the generator writes from the zod definitions now (npm run schema)", () => {
    const committed = fs.readFileSync(path.join(REPO_ROOT, "sdk", "types.generated.ts"), "utf8");
    assert.ok(committed === sdkTypesSource(), "sdk/types.generated.ts is stale: run `npm run schema`");
  });

  it("cover every resource kind (the compile-time comparison with zod lists each)", () => {
    allTrue<InputsMatch>();
    allTrue<StateMatch>();
    allTrue<FunctionsMatch>();
    assert.deepEqual(Object.keys(DEFS).sort(), resourceDefinitions.map((def) => def.kind).sort());
  });
});
