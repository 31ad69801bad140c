// Test program for test/drift-zero-trust.test.ts: one of every service-side Edge kind. Config:
//   mode: "full" sets every optional input (unsorted sets, maps, non-default values);
//         "minimal" sets only the required ones (server defaults, null versus empty).
//   prefix: names (so several stacks can share one mock server).
//   encrypted (full mode): the service's encryptionRequired (default false); a change replaces it.
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();
const full = config.require("mode") === "full";
const prefix = config.require("prefix");

const type = new frontdoor.ConfigType(
  "type",
  full
    ? {
        name: `${prefix}-proxy.v1`,
        schema: {
          type: "object",
          properties: { upstream: { type: "string" }, retries: { type: "integer" } },
          required: ["upstream"],
        },
        target: "service",
        tags: { owner: "net" },
      }
    : { name: `${prefix}-proxy.v1` },
);

const custom = new frontdoor.Config(
  "custom",
  full
    ? {
        name: `${prefix}-custom`,
        configTypeId: type.id,
        data: { upstream: "http://10.0.0.5", retries: 3 },
        tags: { a: "b" },
      }
    : { name: `${prefix}-custom`, configTypeId: type.id, data: {} },
);

const intercept = new frontdoor.Config("intercept", {
  name: `${prefix}-intercept`,
  configTypeName: "intercept.v1",
  data: full
    ? {
        protocols: ["udp", "tcp"],
        addresses: ["app.ziti", "10.9.0.0/16"],
        portRanges: [{ low: 8000, high: 8100 }],
        dialOptions: { identity: "$dst_hostname", connectTimeoutSeconds: 10 },
        sourceIp: "$src_ip:$src_port",
      }
    : { protocols: ["tcp"], addresses: ["app.ziti"], portRanges: [{ low: 443, high: 443 }] },
});

const host = new frontdoor.Config("host", {
  name: `${prefix}-host`,
  configTypeName: full ? "host.v2" : "host.v1",
  data: full
    ? {
        terminators: [
          { forwardProtocol: true, allowedProtocols: ["tcp", "udp"], address: "127.0.0.1", port: 8443 },
          {
            protocol: "tcp",
            address: "backup.internal",
            port: 8443,
            listenOptions: { precedence: "failed" },
          },
        ],
      }
    : { protocol: "tcp", address: "127.0.0.1", port: 8443 },
});

const service = new frontdoor.Service(
  "service",
  full
    ? {
        name: `${prefix}-service`,
        configs: [host.id, intercept.id],
        roleAttributes: ["zeta", "app"],
        encryptionRequired: config.getBoolean("encrypted") ?? false,
        terminatorStrategy: "weighted",
        maxIdleTimeMillis: 60000,
        tags: { tier: "gold" },
      }
    : { name: `${prefix}-service` },
);

const policy = new frontdoor.ServicePolicy(
  "policy",
  full
    ? {
        name: `${prefix}-policy`,
        type: "Bind",
        semantic: "AnyOf",
        identityRoles: ["#hosts", "#backup-hosts"],
        serviceRoles: ["#zeta", pulumi.interpolate`@${service.id}`],
        postureCheckRoles: ["#mfa", "#domain"],
        tags: { reviewed: true },
      }
    : { name: `${prefix}-policy`, type: "Dial" },
);

const serp = new frontdoor.ServiceEdgeRouterPolicy(
  "serp",
  full
    ? {
        name: `${prefix}-serp`,
        semantic: "AnyOf",
        serviceRoles: ["#zeta", "#app"],
        edgeRouterRoles: ["#west", "#east"],
        tags: { region: "eu" },
      }
    : { name: `${prefix}-serp` },
);

export const ids = pulumi
  .all([type.id, custom.id, intercept.id, host.id, service.id, policy.id, serp.id])
  .apply(([type, custom, intercept, host, service, policy, serp]) => ({
    type,
    custom,
    intercept,
    host,
    service,
    policy,
    serp,
  }));
