// The data of the common config types, as zod schemas: a Config of one of these types is checked
// before any API call, with errors naming the property (`data.portRanges.0.high`). The shapes follow
// the JSON schemas the controller holds for its built-in types (v1.5.0 and v1.6.0 hold the same;
// test/config-type-schemas.test.ts compares them live); data of any other config type is checked by
// the controller against that type's schema.
import { z } from "zod";
import type { CheckFailure } from "../resource";

/** The config types every controller creates at first boot, with their fixed ids. */
export const BUILT_IN_CONFIG_TYPES: Record<string, string> = {
  "intercept.v1": "g7cIWbcGg",
  "host.v1": "NH5p4FpGR",
  "host.v2": "host.v2",
  "ziti-tunneler-client.v1": "f2dd2df0-9c04-4b84-a91e-71437ac229f1",
  "ziti-tunneler-server.v1": "cea49285-6c07-42cf-9f52-09a9b115c783",
};

const port = z.number().int().min(0).max(65535);
const portRange = z
  .strictObject({ low: port, high: port })
  .refine((range) => range.low <= range.high, { message: "low must not be above high" });
const protocol = z.enum(["tcp", "udp"]);
// The controller's schemas: "idn-hostname", not empty (an IP, CIDR, hostname or *.domain wildcard).
const address = z.string().min(1).describe("IP address, CIDR, hostname or *.domain wildcard.");
const seconds = z.number().int().min(0).max(2147483647);
// The controller's pattern, unanchored as it is there (it accepts what contains a duration).
const duration = z.string().regex(/[0-9]+(h|m|s|ms)/, 'a duration such as "5s", "500ms", "1m"');

/** The controller's `inhabitedSet`: at least one item, none repeated (its schemas say uniqueItems). */
function inhabitedSet<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .min(1)
    .refine((list) => new Set(list.map((v) => JSON.stringify(v))).size === list.length, {
      message: "items must not repeat",
    })
    .meta({ uniqueItems: true });
}

/** Forwarding is switched on with `true`; the controller's schemas allow no `false`. */
const forward = (what: string) =>
  z.literal(true).optional().describe(`Use the dialing side's ${what} (true; leave unset otherwise).`);

// The meta ids name the shapes the SDK's types (sdk/types.generated.ts) declare once and refer to.
export const HealthCheckAction = z
  .strictObject({
    trigger: z.enum(["fail", "pass", "change"]),
    action: z
      .string()
      .regex(
        /(mark (un)?healthy|increase cost [0-9]+|decrease cost [0-9]+|send event)/,
        '"mark healthy", "mark unhealthy", "increase cost N", "decrease cost N" or "send event"',
      ),
    consecutiveEvents: z.number().int().min(0).max(65535).optional(),
    duration: duration.optional(),
  })
  .meta({ id: "HealthCheckAction", description: "What a health check does when its trigger fires." });
const actions = z.array(HealthCheckAction).min(1).max(20).optional();

const HttpCheck = z.strictObject({
  url: z.string(),
  method: z.enum(["GET", "POST", "PUT", "PATCH"]).optional(),
  body: z.string().optional(),
  expectStatus: z.number().int().min(100).max(599).optional(),
  expectInBody: z.string().optional(),
  interval: duration,
  timeout: duration,
  actions,
});
const PortCheck = z.strictObject({
  address: z.string(),
  interval: duration,
  timeout: duration,
  actions,
});

export const InterceptV1Data = z.strictObject({
  protocols: inhabitedSet(protocol).describe("Protocols intercepted: tcp, udp."),
  addresses: inhabitedSet(address).describe("Addresses intercepted on the dialing side."),
  portRanges: inhabitedSet(portRange).describe("Port ranges intercepted ({low, high})."),
  dialOptions: z
    .strictObject({
      identity: z.string().optional().describe("Name of the hosting identity to dial."),
      connectTimeoutSeconds: seconds.optional(),
    })
    .optional(),
  sourceIp: z.string().optional().describe("Source IP (and port) the hosting side uses."),
  allowedSourceAddresses: inhabitedSet(address)
    .optional()
    .describe("Source IPs/CIDRs that may be intercepted (all when unset)."),
});

/** One terminator: where the hosting identity forwards connections (host.v1, and each of host.v2). */
const HostTerminator = z
  .strictObject({
    protocol: protocol.optional().describe("Protocol to connect with (unless forwardProtocol)."),
    forwardProtocol: forward("protocol"),
    allowedProtocols: inhabitedSet(protocol).optional(),
    address: address.optional().describe("Address to connect to (unless forwardAddress)."),
    forwardAddress: forward("address"),
    allowedAddresses: inhabitedSet(address).optional(),
    port: port.optional().describe("Port to connect to (unless forwardPort)."),
    forwardPort: forward("port"),
    allowedPortRanges: inhabitedSet(portRange).optional(),
    allowedSourceAddresses: inhabitedSet(address).optional(),
    listenOptions: z
      .strictObject({
        bindUsingEdgeIdentity: z.boolean().optional(),
        connectTimeoutSeconds: seconds.optional(),
        connectTimeout: duration.optional(),
        cost: port.optional(),
        identity: z.string().optional(),
        maxConnections: z.number().int().min(1).optional(),
        precedence: z.enum(["default", "required", "failed"]).optional(),
      })
      .optional(),
    httpChecks: z.array(HttpCheck).optional(),
    portChecks: z.array(PortCheck).optional(),
    // The controller's schema leaves this object open; unknown fields are refused here all the same
    // (docs/guides/controller-fidelity.md).
    proxy: z
      .strictObject({ type: z.enum(["http"]), address: z.string().describe("host:port of the proxy.") })
      .optional()
      .describe("An HTTP proxy to dial through."),
  })
  .superRefine((data, ctx) => {
    // Each target is either fixed (protocol) or forwarded from the dialing side (allowedProtocols).
    for (const [fixed, forward, allowed] of [
      ["protocol", "forwardProtocol", "allowedProtocols"],
      ["address", "forwardAddress", "allowedAddresses"],
      ["port", "forwardPort", "allowedPortRanges"],
    ] as const) {
      const needed = data[forward] ? allowed : fixed;
      if (data[needed] === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [needed],
          message: data[forward] ? `required when ${forward} is true` : `required unless ${forward} is true`,
        });
      }
    }
  });

export const HostV1Data = HostTerminator.meta({
  id: "HostV1Data",
  description: "`data` of a host.v1 config, and each terminator of a host.v2 config.",
});
export const HostV2Data = z.strictObject({
  terminators: z.array(HostV1Data).min(1).describe("One or more terminators (host.v1 shapes)."),
});
export const TunnelerClientV1Data = z.strictObject({ hostname: z.string(), port });
export const TunnelerServerV1Data = z.strictObject({
  hostname: z.string(),
  port,
  // The controller's schema allows null here: null is the same as unset.
  protocol: protocol.nullable().optional(),
  httpChecks: z.array(HttpCheck).optional(),
  portChecks: z.array(PortCheck).optional(),
});

/** The typed data schemas by config type name: every config type the controller ships. */
export const TYPED_DATA: Record<string, z.ZodType> = {
  "intercept.v1": InterceptV1Data,
  "host.v1": HostV1Data,
  "host.v2": HostV2Data,
  "ziti-tunneler-client.v1": TunnelerClientV1Data,
  "ziti-tunneler-server.v1": TunnelerServerV1Data,
};

/** Name of a built-in config type by its fixed id, if it is one. */
export function builtInName(configTypeId: string | undefined): string | undefined {
  return Object.entries(BUILT_IN_CONFIG_TYPES).find(([, id]) => id === configTypeId)?.[0];
}

/** Failures of `data` against its config type's schema, when the type is one of the typed ones. */
export function checkConfigData(typeName: string | undefined, data: unknown): CheckFailure[] {
  const schema = typeName ? TYPED_DATA[typeName] : undefined;
  if (!schema) return [];
  const result = schema.safeParse(data);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
    return keys.map((key) => ({
      property: ["data", ...issue.path.map(String), ...(key ? [key] : [])].join("."),
      reason: key ? `unknown property "${key}" for ${typeName}` : `${issue.message} (${typeName})`,
    }));
  });
}
