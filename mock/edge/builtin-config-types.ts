// The config types a controller creates at first boot, with their fixed ids and JSON schemas (as the
// controller's own schemas define them, trimmed of descriptions): configs of these types are
// validated against them like any other type's.
const port = { type: "integer", minimum: 0, maximum: 65535 };
const portRange = {
  type: "object",
  additionalProperties: false,
  properties: { low: port, high: port },
  required: ["low", "high"],
};
const protocol = { type: "string", enum: ["tcp", "udp"] };
const address = { type: "string", minLength: 1 };
const timeoutSeconds = { type: "integer", minimum: 0, maximum: 2147483647 };
const check = { type: "object" };

const interceptV1 = {
  $id: "http://edges.openziti.org/schemas/intercept.v1.config.json",
  type: "object",
  additionalProperties: false,
  properties: {
    protocols: { type: "array", items: protocol, minItems: 1, maxItems: 2 },
    addresses: { type: "array", items: address, minItems: 1 },
    portRanges: { type: "array", items: portRange, minItems: 1 },
    dialOptions: {
      type: "object",
      additionalProperties: false,
      properties: { identity: { type: "string" }, connectTimeoutSeconds: timeoutSeconds },
    },
    sourceIp: { type: "string" },
  },
  required: ["protocols", "addresses", "portRanges"],
};

/** A host.v1 terminator: each target fixed, or forwarded from the dialing side within what is allowed. */
function hostTerminator(): Record<string, unknown> {
  const forwardRule = (forward: string, allowed: string, fixed: string) => ({
    if: { properties: { [forward]: { const: true } }, required: [forward] },
    // biome-ignore lint/suspicious/noThenProperty: a JSON schema keyword, never awaited
    then: { required: [allowed] },
    else: { required: [fixed] },
  });
  return {
    type: "object",
    additionalProperties: false,
    properties: {
      protocol,
      forwardProtocol: { type: "boolean" },
      allowedProtocols: { type: "array", items: protocol, minItems: 1 },
      address,
      forwardAddress: { type: "boolean" },
      allowedAddresses: { type: "array", items: address, minItems: 1 },
      port,
      forwardPort: { type: "boolean" },
      allowedPortRanges: { type: "array", items: portRange, minItems: 1 },
      allowedSourceAddresses: { type: "array", items: address },
      listenOptions: {
        type: "object",
        additionalProperties: false,
        properties: {
          bindUsingEdgeIdentity: { type: "boolean" },
          connectTimeoutSeconds: timeoutSeconds,
          connectTimeout: { type: "string" },
          cost: port,
          identity: { type: "string" },
          maxConnections: { type: "integer", minimum: 1 },
          precedence: { type: "string", enum: ["default", "required", "failed"] },
        },
      },
      httpChecks: { type: "array", items: check },
      portChecks: { type: "array", items: check },
    },
    allOf: [
      forwardRule("forwardProtocol", "allowedProtocols", "protocol"),
      forwardRule("forwardAddress", "allowedAddresses", "address"),
      forwardRule("forwardPort", "allowedPortRanges", "port"),
    ],
  };
}

const hostV1 = { $id: "http://edges.openziti.org/schemas/host.v1.config.json", ...hostTerminator() };
const hostV2 = {
  $id: "http://edges.openziti.org/schemas/host.v2.config.json",
  type: "object",
  additionalProperties: false,
  properties: { terminators: { type: "array", items: hostTerminator(), minItems: 1 } },
  required: ["terminators"],
};

const tunnelerClientV1 = {
  $id: "http://edges.openziti.org/schemas/ziti-tunneler-client.v1.config.json",
  type: "object",
  additionalProperties: false,
  properties: { hostname: address, port },
  required: ["hostname", "port"],
};
const tunnelerServerV1 = {
  $id: "http://edges.openziti.org/schemas/ziti-tunneler-server.v1.config.json",
  type: "object",
  additionalProperties: false,
  properties: { hostname: address, port, protocol: protocol },
  required: ["hostname", "port"],
};

export const BUILT_IN_CONFIG_TYPES: { id: string; name: string; schema: Record<string, unknown> }[] = [
  { id: "f2dd2df0-9c04-4b84-a91e-71437ac229f1", name: "ziti-tunneler-client.v1", schema: tunnelerClientV1 },
  { id: "cea49285-6c07-42cf-9f52-09a9b115c783", name: "ziti-tunneler-server.v1", schema: tunnelerServerV1 },
  { id: "NH5p4FpGR", name: "host.v1", schema: hostV1 },
  { id: "g7cIWbcGg", name: "intercept.v1", schema: interceptV1 },
  { id: "host.v2", name: "host.v2", schema: hostV2 },
];
