// The data of the common config types, as zod schemas: a Config of one of these types is checked
// before any API call, with errors naming the property (`data.portRanges.0.high`). The shapes follow
// the controller's built-in JSON schemas (additional properties are errors there too); data of any
// other config type is checked by the controller against that type's schema.
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
const address = z.string().min(1).describe("IP address, CIDR, hostname or *.domain wildcard.");
const seconds = z.number().int().min(0).max(2147483647);

export const InterceptV1Data = z.strictObject({
  protocols: z.array(protocol).min(1).max(2).describe("Protocols intercepted: tcp, udp."),
  addresses: z.array(address).min(1).describe("Addresses intercepted on the dialing side."),
  portRanges: z.array(portRange).min(1).describe("Port ranges intercepted ({low, high})."),
  dialOptions: z
    .strictObject({
      identity: z.string().optional().describe("Name of the hosting identity to dial."),
      connectTimeoutSeconds: seconds.optional(),
    })
    .optional(),
  sourceIp: z.string().optional().describe("Source IP (and port) the hosting side uses."),
});

const check = z.record(z.string(), z.unknown());

/** One terminator: where the hosting identity forwards connections (host.v1, and each of host.v2). */
const HostTerminator = z
  .strictObject({
    protocol: protocol.optional().describe("Protocol to connect with (unless forwardProtocol)."),
    forwardProtocol: z.boolean().optional().describe("Use the dialing side's protocol."),
    allowedProtocols: z.array(protocol).min(1).optional(),
    address: address.optional().describe("Address to connect to (unless forwardAddress)."),
    forwardAddress: z.boolean().optional().describe("Use the dialing side's address."),
    allowedAddresses: z.array(address).min(1).optional(),
    port: port.optional().describe("Port to connect to (unless forwardPort)."),
    forwardPort: z.boolean().optional().describe("Use the dialing side's port."),
    allowedPortRanges: z.array(portRange).min(1).optional(),
    allowedSourceAddresses: z.array(address).optional(),
    listenOptions: z
      .strictObject({
        bindUsingEdgeIdentity: z.boolean().optional(),
        connectTimeoutSeconds: seconds.optional(),
        connectTimeout: z.string().optional(),
        cost: port.optional(),
        identity: z.string().optional(),
        maxConnections: z.number().int().min(1).optional(),
        precedence: z.enum(["default", "required", "failed"]).optional(),
      })
      .optional(),
    httpChecks: z.array(check).optional(),
    portChecks: z.array(check).optional(),
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

export const HostV1Data = HostTerminator;
export const HostV2Data = z.strictObject({
  terminators: z.array(HostTerminator).min(1).describe("One or more terminators (host.v1 shapes)."),
});

/** The typed data schemas by config type name. */
const TYPED_DATA: Record<string, z.ZodType> = {
  "intercept.v1": InterceptV1Data,
  "host.v1": HostV1Data,
  "host.v2": HostV2Data,
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
