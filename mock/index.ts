// The mock server's public entry point, shipped in the package as `pulumi-frontdoor/mock` (and the
// `pulumi-frontdoor-mock` command), so users can test their own programs against it. Like the rest
// of the mock it imports nothing from the provider or the SDK: it implements the API contracts on
// its own, so a test that passes against it checks the provider against the contracts.
export {
  type ClusterBehaviour,
  type ElectionPhase,
  type ElectionTimings,
  type KillOnRequest,
  type MockCluster,
  type MockClusterNode,
  type MockClusterOptions,
  type NodeRef,
  type ReplicationLag,
  startMockCluster,
} from "./cluster";
export { type MockProcess, startMockProcess } from "./process";
export {
  CONTROL_TOKEN_HEADER,
  controlHeaders,
  type DemoCredentials,
  type FrontdoorMockOptions,
  type MockServer,
  type MockServerOptions,
  type RequestLogEntry,
  startMockServer,
} from "./server";
