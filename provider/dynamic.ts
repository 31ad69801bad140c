// The dynamic-provider object handed to `pulumi.dynamic.Resource`. Pulumi serializes it into the
// `__provider` input of every resource, so it must stay tiny and hold no secret. Each kind's provider
// object is the exports of its own module (provider/kinds/<Kind>.ts), which the closure serializer
// captures by reference when the package is installed: the whole serialized provider is then
// `require("pulumi-frontdoor/bin/provider/kinds/<Kind>.js")` plus a line of glue. Credentials reach the
// engine at run time through `configure` (stack config) or environment variables, never through it.
import type * as pulumi from "@pulumi/pulumi";

export function dynamicProvider(kind: string): pulumi.dynamic.ResourceProvider {
  return require(`./kinds/${kind}`);
}
