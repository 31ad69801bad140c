// The dynamic-provider object handed to `pulumi.dynamic.Resource`. Pulumi serializes it into the
// `__provider` input of every resource, so it must stay tiny and hold no secret. Each kind's provider
// object is the exports of its own module (provider/kinds/<Kind>.ts), which the closure serializer
// captures by reference when the package is installed: the whole serialized provider is then
// `require("pulumi-frontdoor/bin/provider/kinds/<Kind>.js")` plus a line of glue. Credentials reach the
// engine at run time through `configure` (stack config) or environment variables, never through it.
//
// The program loads this module and the kind's module, and nothing more of the provider: the methods
// load the engine (HTTP clients, validation, PKI) on their first call, which happens in the host only.
import type * as pulumi from "@pulumi/pulumi";
import type { HostConfig } from "./engine";
import type { Props } from "./resource";

export function dynamicProvider(kind: string): pulumi.dynamic.ResourceProvider {
  return require(`./kinds/${kind}`);
}

type Engine = typeof import("./engine");

/** The provider methods of one kind, as the host calls them. */
export function providerFor(kind: string) {
  const engine = (): Engine => require("./engine");
  return {
    configure: (req: { config: HostConfig }) => engine().configure(req.config),
    check: (olds: Props, news: Props) => engine().checkOnline(kind, olds, news),
    diff: (id: string, olds: Props, news: Props) => engine().diff(kind, id, olds, news),
    create: (inputs: Props) => engine().create(kind, inputs),
    read: (id: string, props: Props) => engine().read(kind, id, props),
    update: (id: string, olds: Props, news: Props) => engine().update(kind, id, olds, news),
    delete: (id: string, props: Props) => engine().remove(kind, id, props),
  };
}
