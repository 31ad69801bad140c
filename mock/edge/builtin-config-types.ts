// biome-ignore-all lint/suspicious/noThenProperty: JSON schema keywords (if/then/else), never awaited
// The config types a controller creates at first boot, with their fixed ids and JSON schemas exactly
// as a real controller v1.6.0 serves them from `GET /config-types` (v1.5.0: the same, but its
// intercept.v1 has no allowedSourceAddresses): configs of these types are validated against them like
// any other type's. test/config-type-schemas.test.ts compares them live with both releases.
export type MockRelease = "v1.6.0" | "v1.5.0";

/** The built-in config types of the release the mock imitates. */
export function builtInConfigTypes(release: MockRelease): typeof BUILT_IN_CONFIG_TYPES {
  const types = structuredClone(BUILT_IN_CONFIG_TYPES);
  if (release === "v1.5.0") {
    const intercept = types.find((t) => t.name === "intercept.v1")?.schema as {
      properties: Record<string, unknown>;
    };
    delete intercept.properties.allowedSourceAddresses;
  }
  return types;
}

const BUILT_IN_CONFIG_TYPES: { id: string; name: string; schema: Record<string, unknown> }[] = [
  {
    id: "f2dd2df0-9c04-4b84-a91e-71437ac229f1",
    name: "ziti-tunneler-client.v1",
    schema: {
      $id: "http://edge.openziti.org/schemas/ziti-tunneler-client.v1.config.json",
      additionalProperties: false,
      properties: { hostname: { type: "string" }, port: { maximum: 65535, minimum: 0, type: "integer" } },
      required: ["hostname", "port"],
      type: "object",
    },
  },
  {
    id: "cea49285-6c07-42cf-9f52-09a9b115c783",
    name: "ziti-tunneler-server.v1",
    schema: {
      $id: "http://edge.openziti.org/schemas/ziti-tunneler-server.v1.config.json",
      additionalProperties: false,
      definitions: {
        action: {
          additionalProperties: false,
          properties: {
            action: {
              pattern: "(mark (un)?healthy|increase cost [0-9]+|decrease cost [0-9]+|send event)",
              type: "string",
            },
            consecutiveEvents: { maximum: 65535, minimum: 0, type: "integer" },
            duration: { $ref: "#/definitions/duration" },
            trigger: { enum: ["fail", "pass", "change"], type: "string" },
          },
          required: ["trigger", "action"],
          type: "object",
        },
        actionList: { items: { $ref: "#/definitions/action" }, maxItems: 20, minItems: 1, type: "array" },
        duration: { pattern: "[0-9]+(h|m|s|ms)", type: "string" },
        httpCheck: {
          additionalProperties: false,
          properties: {
            actions: { $ref: "#/definitions/actionList" },
            body: { type: "string" },
            expectInBody: { type: "string" },
            expectStatus: { maximum: 599, minimum: 100, type: "integer" },
            interval: { $ref: "#/definitions/duration" },
            method: { $ref: "#/definitions/method" },
            timeout: { $ref: "#/definitions/duration" },
            url: { type: "string" },
          },
          required: ["interval", "timeout", "url"],
          type: "object",
        },
        httpCheckList: { items: { $ref: "#/definitions/httpCheck" }, type: "array" },
        method: { enum: ["GET", "POST", "PUT", "PATCH"], type: "string" },
        portCheck: {
          additionalProperties: false,
          properties: {
            actions: { $ref: "#/definitions/actionList" },
            address: { type: "string" },
            interval: { $ref: "#/definitions/duration" },
            timeout: { $ref: "#/definitions/duration" },
          },
          required: ["interval", "timeout", "address"],
          type: "object",
        },
        portCheckList: { items: { $ref: "#/definitions/portCheck" }, type: "array" },
      },
      properties: {
        hostname: { type: "string" },
        httpChecks: { $ref: "#/definitions/httpCheckList" },
        port: { maximum: 65535, minimum: 0, type: "integer" },
        portChecks: { $ref: "#/definitions/portCheckList" },
        protocol: { enum: ["tcp", "udp"], type: ["string", "null"] },
      },
      required: ["hostname", "port"],
      type: "object",
    },
  },
  {
    id: "NH5p4FpGR",
    name: "host.v1",
    schema: {
      $id: "http://ziti-edge.netfoundry.io/schemas/host.v1.schema.json",
      additionalProperties: false,
      allOf: [
        {
          else: { required: ["protocol"] },
          if: { properties: { forwardProtocol: { const: true } }, required: ["forwardProtocol"] },
          then: { required: ["allowedProtocols"] },
        },
        {
          else: { required: ["address"] },
          if: { properties: { forwardAddress: { const: true } }, required: ["forwardAddress"] },
          then: { required: ["allowedAddresses"] },
        },
        {
          else: { required: ["port"] },
          if: { properties: { forwardPort: { const: true } }, required: ["forwardPort"] },
          then: { required: ["allowedPortRanges"] },
        },
      ],
      definitions: {
        action: {
          additionalProperties: false,
          properties: {
            action: {
              pattern: "(mark (un)?healthy|increase cost [0-9]+|decrease cost [0-9]+|send event)",
              type: "string",
            },
            consecutiveEvents: { maximum: 65535, minimum: 0, type: "integer" },
            duration: { $ref: "#/definitions/duration" },
            trigger: { enum: ["fail", "pass", "change"], type: "string" },
          },
          required: ["trigger", "action"],
          type: "object",
        },
        actionList: { items: { $ref: "#/definitions/action" }, maxItems: 20, minItems: 1, type: "array" },
        dialAddress: { format: "idn-hostname", not: { pattern: "^$" }, type: "string" },
        duration: { pattern: "[0-9]+(h|m|s|ms)", type: "string" },
        httpCheck: {
          additionalProperties: false,
          properties: {
            actions: { $ref: "#/definitions/actionList" },
            body: { type: "string" },
            expectInBody: { type: "string" },
            expectStatus: { maximum: 599, minimum: 100, type: "integer" },
            interval: { $ref: "#/definitions/duration" },
            method: { $ref: "#/definitions/method" },
            timeout: { $ref: "#/definitions/duration" },
            url: { type: "string" },
          },
          required: ["interval", "timeout", "url"],
          type: "object",
        },
        httpCheckList: { items: { $ref: "#/definitions/httpCheck" }, type: "array" },
        inhabitedSet: { minItems: 1, type: "array", uniqueItems: true },
        listenAddress: {
          description:
            "idn-hostname allows ipv4 and ipv6 addresses, as well as hostnames that might happen to contain '*' and/or '/'. so idn-hostname allows every supported intercept address, although ip addresses, wildcards and cidrs are only being validated as hostnames by this format. client applications will need to look for _valid_ ips, cidrs, and wildcards when parsing intercept addresses and treat them accordingly. anything else should be interpreted as a dns label. this means e.g. that '1.2.3.4/56' should be treated as a dns label, since it is not a valid cidr",
          format: "idn-hostname",
          not: { pattern: "^$" },
          type: "string",
        },
        method: { enum: ["GET", "POST", "PUT", "PATCH"], type: "string" },
        portCheck: {
          additionalProperties: false,
          properties: {
            actions: { $ref: "#/definitions/actionList" },
            address: { type: "string" },
            interval: { $ref: "#/definitions/duration" },
            timeout: { $ref: "#/definitions/duration" },
          },
          required: ["interval", "timeout", "address"],
          type: "object",
        },
        portCheckList: { items: { $ref: "#/definitions/portCheck" }, type: "array" },
        portNumber: { maximum: 65535, minimum: 0, type: "integer" },
        portRange: {
          additionalProperties: false,
          properties: {
            high: { $ref: "#/definitions/portNumber" },
            low: { $ref: "#/definitions/portNumber" },
          },
          required: ["low", "high"],
          type: "object",
        },
        protocolName: { enum: ["tcp", "udp"], type: "string" },
        proxyConfiguration: {
          properties: {
            address: { description: "The address of the proxy in host:port format", type: "string" },
            type: { $ref: "#/definitions/proxyType", description: "The type of the proxy being used" },
          },
          required: ["type", "address"],
          type: "object",
        },
        proxyType: { description: "supported proxy types", enum: ["http"], type: "string" },
        timeoutSeconds: { maximum: 2147483647, minimum: 0, type: "integer" },
      },
      properties: {
        address: {
          $ref: "#/definitions/dialAddress",
          description:
            "Dial the specified ip address or hostname when a ziti client connects to the service.",
        },
        allowedAddresses: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/listenAddress" } }],
          description: "Only allow addresses from this set to be dialed",
        },
        allowedPortRanges: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/portRange" } }],
          description: "Only allow ports from this set to be dialed",
        },
        allowedProtocols: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/protocolName" } }],
          description: "Only allow protocols from this set to be dialed",
        },
        allowedSourceAddresses: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/listenAddress" } }],
          description:
            "hosting tunnelers establish local routes for the specified source addresses so binding will succeed",
        },
        forwardAddress: {
          description:
            "Dial the same ip address that was intercepted at the client tunneler. 'address' and 'forwardAddress' are mutually exclusive.",
          enum: [true],
          type: "boolean",
        },
        forwardPort: {
          description:
            "Dial the same port that was intercepted at the client tunneler. 'port' and 'forwardPort' are mutually exclusive.",
          enum: [true],
          type: "boolean",
        },
        forwardProtocol: {
          description:
            "Dial the same protocol that was intercepted at the client tunneler. 'protocol' and 'forwardProtocol' are mutually exclusive.",
          enum: [true],
          type: "boolean",
        },
        httpChecks: { $ref: "#/definitions/httpCheckList" },
        listenOptions: {
          additionalProperties: false,
          properties: {
            bindUsingEdgeIdentity: {
              description:
                "Associate the hosting terminator with the name of the hosting tunneler's identity. Setting this to 'true' is equivalent to setting 'identiy=$tunneler_id.name'",
              type: "boolean",
            },
            connectTimeout: {
              $ref: "#/definitions/duration",
              description:
                "Timeout when making outbound connections. Defaults to '5s'. If both connectTimoutSeconds and connectTimeout are specified, connectTimeout will be used.",
            },
            connectTimeoutSeconds: {
              $ref: "#/definitions/timeoutSeconds",
              deprecated: true,
              description:
                "Timeout when making outbound connections. Defaults to 5. If both connectTimoutSeconds and connectTimeout are specified, connectTimeout will be used.",
            },
            cost: { description: "defaults to 0", maximum: 65535, minimum: 0, type: "integer" },
            identity: {
              description:
                "Associate the hosting terminator with the specified identity. '$tunneler_id.name' resolves to the name of the hosting tunneler's identity. '$tunneler_id.tag[tagName]' resolves to the value of the 'tagName' tag on the hosting tunneler's identity.",
              type: "string",
            },
            maxConnections: { description: "defaults to 3", minimum: 1, type: "integer" },
            precedence: {
              description: "defaults to 'default'",
              enum: ["default", "required", "failed"],
              type: "string",
            },
          },
          type: "object",
        },
        port: {
          $ref: "#/definitions/portNumber",
          description: "Dial the specified port when a ziti client connects to the service.",
        },
        portChecks: { $ref: "#/definitions/portCheckList" },
        protocol: {
          $ref: "#/definitions/protocolName",
          description: "Dial the specified protocol when a ziti client connects to the service.",
        },
        proxy: {
          $ref: "#/definitions/proxyConfiguration",
          description: "If defined, outgoing connections will be send through this proxy server",
        },
      },
      type: "object",
    },
  },
  {
    id: "g7cIWbcGg",
    name: "intercept.v1",
    schema: {
      $id: "http://edge.openziti.org/schemas/intercept.v1.config.json",
      additionalProperties: false,
      definitions: {
        dialAddress: { format: "idn-hostname", not: { pattern: "^$" }, type: "string" },
        inhabitedSet: { minItems: 1, type: "array", uniqueItems: true },
        listenAddress: {
          description:
            "idn-hostname allows ipv4 and ipv6 addresses, as well as hostnames that might happen to contain '*' and/or '/'. so idn-hostname allows every supported intercept address, although ip addresses, wildcards and cidrs are only being validated as hostnames by this format. client applications will need to look for _valid_ ips, cidrs, and wildcards when parsing intercept addresses and treat them accordingly. anything else should be interpreted as a dns label. this means e.g. that '1.2.3.4/56' should be treated as a dns label, since it is not a valid cidr",
          format: "idn-hostname",
          not: { pattern: "^$" },
          type: "string",
        },
        portNumber: { maximum: 65535, minimum: 0, type: "integer" },
        portRange: {
          additionalProperties: false,
          properties: {
            high: { $ref: "#/definitions/portNumber" },
            low: { $ref: "#/definitions/portNumber" },
          },
          required: ["low", "high"],
          type: "object",
        },
        protocolName: { enum: ["tcp", "udp"], type: "string" },
        proxyConfiguration: {
          properties: {
            address: { description: "The address of the proxy in host:port format", type: "string" },
            type: { $ref: "#/definitions/proxyType", description: "The type of the proxy being used" },
          },
          required: ["type", "address"],
          type: "object",
        },
        proxyType: { description: "supported proxy types", enum: ["http"], type: "string" },
        timeoutSeconds: { maximum: 2147483647, minimum: 0, type: "integer" },
      },
      properties: {
        addresses: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/listenAddress" } }],
        },
        allowedSourceAddresses: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/listenAddress" } }],
          description:
            "white list of source ips/cidrs that can be intercepted. all ips can be intercepted if this is not set.",
        },
        dialOptions: {
          additionalProperties: false,
          properties: {
            connectTimeoutSeconds: {
              $ref: "#/definitions/timeoutSeconds",
              description:
                "defaults to 5 seconds if no dialOptions are defined. defaults to 15 if dialOptions are defined but connectTimeoutSeconds is not specified.",
            },
            identity: {
              description:
                "Dial a terminator with the specified identity. '$dst_protocol', '$dst_ip', '$dst_port are resolved to the corresponding value of the destination address.",
              type: "string",
            },
          },
          type: "object",
        },
        portRanges: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/portRange" } }],
        },
        protocols: {
          allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/protocolName" } }],
        },
        sourceIp: {
          description:
            "The source IP (and optional :port) to spoof when the connection is egressed from the hosting tunneler. '$tunneler_id.name' resolves to the name of the client tunneler's identity. '$tunneler_id.tag[tagName]' resolves to the value of the 'tagName' tag on the client tunneler's identity. '$src_ip' and '$src_port' resolve to the source IP / port of the originating client. '$dst_port' resolves to the port that the client is trying to connect.",
          type: "string",
        },
      },
      required: ["protocols", "addresses", "portRanges"],
      type: "object",
    },
  },
  {
    id: "host.v2",
    name: "host.v2",
    schema: {
      $id: "http://ziti-edge.netfoundry.io/schemas/host.v2.schema.json",
      additionalProperties: false,
      definitions: {
        action: {
          additionalProperties: false,
          properties: {
            action: {
              pattern: "(mark (un)?healthy|increase cost [0-9]+|decrease cost [0-9]+|send event)",
              type: "string",
            },
            consecutiveEvents: { maximum: 65535, minimum: 0, type: "integer" },
            duration: { $ref: "#/definitions/duration" },
            trigger: { enum: ["fail", "pass", "change"], type: "string" },
          },
          required: ["trigger", "action"],
          type: "object",
        },
        actionList: { items: { $ref: "#/definitions/action" }, maxItems: 20, minItems: 1, type: "array" },
        dialAddress: { format: "idn-hostname", not: { pattern: "^$" }, type: "string" },
        duration: { pattern: "[0-9]+(h|m|s|ms)", type: "string" },
        httpCheck: {
          additionalProperties: false,
          properties: {
            actions: { $ref: "#/definitions/actionList" },
            body: { type: "string" },
            expectInBody: { type: "string" },
            expectStatus: { maximum: 599, minimum: 100, type: "integer" },
            interval: { $ref: "#/definitions/duration" },
            method: { $ref: "#/definitions/method" },
            timeout: { $ref: "#/definitions/duration" },
            url: { type: "string" },
          },
          required: ["interval", "timeout", "url"],
          type: "object",
        },
        httpCheckList: { items: { $ref: "#/definitions/httpCheck" }, type: "array" },
        inhabitedSet: { minItems: 1, type: "array", uniqueItems: true },
        listenAddress: {
          description:
            "idn-hostname allows ipv4 and ipv6 addresses, as well as hostnames that might happen to contain '*' and/or '/'. so idn-hostname allows every supported intercept address, although ip addresses, wildcards and cidrs are only being validated as hostnames by this format. client applications will need to look for _valid_ ips, cidrs, and wildcards when parsing intercept addresses and treat them accordingly. anything else should be interpreted as a dns label. this means e.g. that '1.2.3.4/56' should be treated as a dns label, since it is not a valid cidr",
          format: "idn-hostname",
          not: { pattern: "^$" },
          type: "string",
        },
        method: { enum: ["GET", "POST", "PUT", "PATCH"], type: "string" },
        portCheck: {
          additionalProperties: false,
          properties: {
            actions: { $ref: "#/definitions/actionList" },
            address: { type: "string" },
            interval: { $ref: "#/definitions/duration" },
            timeout: { $ref: "#/definitions/duration" },
          },
          required: ["interval", "timeout", "address"],
          type: "object",
        },
        portCheckList: { items: { $ref: "#/definitions/portCheck" }, type: "array" },
        portNumber: { maximum: 65535, minimum: 0, type: "integer" },
        portRange: {
          additionalProperties: false,
          properties: {
            high: { $ref: "#/definitions/portNumber" },
            low: { $ref: "#/definitions/portNumber" },
          },
          required: ["low", "high"],
          type: "object",
        },
        protocolName: { enum: ["tcp", "udp"], type: "string" },
        proxyConfiguration: {
          properties: {
            address: { description: "The address of the proxy in host:port format", type: "string" },
            type: { $ref: "#/definitions/proxyType", description: "The type of the proxy being used" },
          },
          required: ["type", "address"],
          type: "object",
        },
        proxyType: { description: "supported proxy types", enum: ["http"], type: "string" },
        terminator: {
          additionalProperties: false,
          allOf: [
            {
              else: { required: ["protocol"] },
              if: { properties: { forwardProtocol: { const: true } }, required: ["forwardProtocol"] },
              then: { required: ["allowedProtocols"] },
            },
            {
              else: { required: ["address"] },
              if: { properties: { forwardAddress: { const: true } }, required: ["forwardAddress"] },
              then: { required: ["allowedAddresses"] },
            },
            {
              else: { required: ["port"] },
              if: { properties: { forwardPort: { const: true } }, required: ["forwardPort"] },
              then: { required: ["allowedPortRanges"] },
            },
          ],
          properties: {
            address: {
              $ref: "#/definitions/dialAddress",
              description:
                "Dial the specified ip address or hostname when a ziti client connects to the service.",
            },
            allowedAddresses: {
              allOf: [
                { $ref: "#/definitions/inhabitedSet" },
                { items: { $ref: "#/definitions/listenAddress" } },
              ],
              description: "Only allow addresses from this set to be dialed",
            },
            allowedPortRanges: {
              allOf: [{ $ref: "#/definitions/inhabitedSet" }, { items: { $ref: "#/definitions/portRange" } }],
              description: "Only allow ports from this set to be dialed",
            },
            allowedProtocols: {
              allOf: [
                { $ref: "#/definitions/inhabitedSet" },
                { items: { $ref: "#/definitions/protocolName" } },
              ],
              description: "Only allow protocols from this set to be dialed",
            },
            allowedSourceAddresses: {
              allOf: [
                { $ref: "#/definitions/inhabitedSet" },
                { items: { $ref: "#/definitions/listenAddress" } },
              ],
              description:
                "hosting tunnelers establish local routes for the specified source addresses so binding will succeed",
            },
            forwardAddress: {
              description:
                "Dial the same ip address that was intercepted at the client tunneler. 'address' and 'forwardAddress' are mutually exclusive.",
              enum: [true],
              type: "boolean",
            },
            forwardPort: {
              description:
                "Dial the same port that was intercepted at the client tunneler. 'port' and 'forwardPort' are mutually exclusive.",
              enum: [true],
              type: "boolean",
            },
            forwardProtocol: {
              description:
                "Dial the same protocol that was intercepted at the client tunneler. 'protocol' and 'forwardProtocol' are mutually exclusive.",
              enum: [true],
              type: "boolean",
            },
            httpChecks: { $ref: "#/definitions/httpCheckList" },
            listenOptions: {
              additionalProperties: false,
              properties: {
                bindUsingEdgeIdentity: {
                  description:
                    "Associate the hosting terminator with the name of the hosting tunneler's identity. Setting this to 'true' is equivalent to setting 'identiy=$tunneler_id.name'",
                  type: "boolean",
                },
                connectTimeout: {
                  $ref: "#/definitions/duration",
                  description:
                    "Timeout when making outbound connections. Defaults to '5s'. If both connectTimoutSeconds and connectTimeout are specified, connectTimeout will be used.",
                },
                connectTimeoutSeconds: {
                  $ref: "#/definitions/timeoutSeconds",
                  deprecated: true,
                  description:
                    "Timeout when making outbound connections. Defaults to 5. If both connectTimoutSeconds and connectTimeout are specified, connectTimeout will be used.",
                },
                cost: { description: "defaults to 0", maximum: 65535, minimum: 0, type: "integer" },
                identity: {
                  description:
                    "Associate the hosting terminator with the specified identity. '$tunneler_id.name' resolves to the name of the hosting tunneler's identity. '$tunneler_id.tag[tagName]' resolves to the value of the 'tagName' tag on the hosting tunneler's identity.",
                  type: "string",
                },
                maxConnections: { description: "defaults to 3", minimum: 1, type: "integer" },
                precedence: {
                  description: "defaults to 'default'",
                  enum: ["default", "required", "failed"],
                  type: "string",
                },
              },
              type: "object",
            },
            port: {
              $ref: "#/definitions/portNumber",
              description: "Dial the specified port when a ziti client connects to the service.",
            },
            portChecks: { $ref: "#/definitions/portCheckList" },
            protocol: {
              $ref: "#/definitions/protocolName",
              description: "Dial the specified protocol when a ziti client connects to the service.",
            },
            proxy: {
              $ref: "#/definitions/proxyConfiguration",
              description: "If defined, outgoing connections will be send through this proxy server",
            },
          },
          type: "object",
        },
        terminatorList: { items: { $ref: "#/definitions/terminator" }, minItems: 1, type: "array" },
        timeoutSeconds: { maximum: 2147483647, minimum: 0, type: "integer" },
      },
      properties: { terminators: { $ref: "#/definitions/terminatorList" } },
      required: ["terminators"],
      type: "object",
    },
  },
];
