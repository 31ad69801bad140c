// Config: data of a config type attached to services (how tunnelers intercept or host them). The type
// is given by name (`configTypeName: "intercept.v1"`, resolved to its id by a lookup on the
// controller) or by id (`configTypeId`); it cannot change (the update shapes do not carry it), so a
// change replaces the config. Data of intercept.v1, host.v1 and host.v2 is checked before any API
// call; other types' data is checked by the controller against the type's JSON schema.
import { z } from "zod";
import { type EdgeObject, nameFilter } from "../http/edge";
import { ProviderError } from "../http/errors";
import {
  type CheckFailure,
  containsUnknown,
  type Props,
  type ResourceContext,
  type ResourceDefinition,
} from "../resource";
import { edgeName } from "./common";
import { builtInName, checkConfigData } from "./configData";
import { EdgeCollection, tagsOf } from "./edgeCollection";
import { collectionOperations } from "./operations";
import { tags } from "./roles";

export const ConfigInputs = z.strictObject({
  name: edgeName("Name of the config (unique)."),
  configTypeName: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Name of the config type, e.g. "intercept.v1", "host.v1", "host.v2" (looked up on the controller). ' +
        "Give this or configTypeId; a change replaces the config.",
    ),
  configTypeId: z
    .string()
    .min(1)
    .optional()
    .describe("Id of the config type (instead of configTypeName); a change replaces the config."),
  data: z
    .record(z.string(), z.unknown())
    .describe(
      "The config's data, as the config type's schema defines it. intercept.v1, host.v1 and host.v2 data is " +
        "checked at preview (see the InterceptV1Data, HostV1Data, HostV2Data types of the SDK).",
    ),
  tags,
});
export type ConfigInputs = z.output<typeof ConfigInputs>;

const collection = new EdgeCollection("Config", "configs");

function validate(inputs: ConfigInputs): CheckFailure[] {
  if (inputs.configTypeName === undefined && inputs.configTypeId === undefined) {
    return [{ property: "configTypeName", reason: "required: set configTypeName (or configTypeId)" }];
  }
  if ([inputs.data, inputs.configTypeName, inputs.configTypeId].some(containsUnknown)) return [];
  const builtIn = builtInName(inputs.configTypeId);
  if (inputs.configTypeName && builtIn && builtIn !== inputs.configTypeName) {
    const reason = `is the id of "${builtIn}", not of configTypeName "${inputs.configTypeName}"`;
    return [{ property: "configTypeId", reason }];
  }
  return checkConfigData(inputs.configTypeName ?? builtIn, inputs.data);
}

/**
 * The config type's id: looked up by name, or as given. When both are given they must agree, or the
 * name read back would differ from the declared one on every refresh.
 */
async function configTypeIdOf(ctx: ResourceContext, inputs: ConfigInputs): Promise<string> {
  if (inputs.configTypeName === undefined) return String(inputs.configTypeId);
  const name = inputs.configTypeName;
  const label = collection.label(inputs);
  const types = await ctx.edge().list<EdgeObject>("/config-types", nameFilter(name), label);
  const found = types.find((t) => t.name === name);
  if (!found) throw new ProviderError(`${label}: there is no config type named "${name}" on the controller`);
  if (inputs.configTypeId !== undefined && inputs.configTypeId !== found.id) {
    throw new ProviderError(
      `${label}: configTypeId ${inputs.configTypeId} is not the id of config type "${name}" (${found.id}); give one of the two`,
    );
  }
  return found.id;
}

function outputs(server: EdgeObject): Props {
  const type = tagsOf(server.configType);
  return {
    name: server.name,
    configTypeId: server.configTypeId,
    configTypeName:
      typeof type.name === "string" ? type.name : (builtInName(String(server.configTypeId)) ?? null),
    data: tagsOf(server.data),
    tags: tagsOf(server.tags),
  };
}

async function create(ctx: ResourceContext, inputs: ConfigInputs) {
  const configTypeId = await configTypeIdOf(ctx, inputs);
  const { name, data, tags } = inputs;
  return collection.createAndRead(ctx, inputs, { name, configTypeId, data, tags }, (server) =>
    outputs(server),
  );
}

async function update(ctx: ResourceContext, id: string, _olds: Props, news: ConfigInputs) {
  // PUT: the whole declared state (the type is not part of it: changing it replaces the config).
  await collection.put(ctx, news, id, { name: news.name, data: news.data, tags: news.tags });
  return outputs(await collection.require(ctx, news, id));
}

export const config = {
  kind: "Config",
  api: "edge" as const,
  description:
    'An OpenZiti config: data of a config type (e.g. `configTypeName: "intercept.v1"`) that services list in ' +
    "`configs`. intercept.v1, host.v1 and host.v2 data is validated at preview, naming the property; other " +
    "types' data is validated by the controller against the type's JSON schema.",
  inputs: ConfigInputs,
  outputs: z.object({}),
  replaceOnChanges: ["configTypeName", "configTypeId"],
  deleteBeforeReplace: true,
  // Whichever of name and id the program leaves out is filled in from the controller: not drift.
  serverDefaults: ["configTypeName", "configTypeId"],
  validate,
  create,
  update,
  ...collectionOperations(collection, (server) => outputs(server)),
} satisfies ResourceDefinition<ConfigInputs>;
