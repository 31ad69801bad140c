// Fixture program for the engine harness tests. Its dynamic provider keeps each object as a JSON file
// in `<dataDir>/objects/` and appends every create/update/delete to `<dataDir>/events.log`, so tests
// can check what the host really did (and in which order). What to declare comes from config `spec`.
import * as pulumi from "@pulumi/pulumi";

/** One object the program declares (harness.test.ts builds its specs with this type). */
export interface Item {
  name: string;
  key: string;
  value?: string;
  /** Input `secretValue` = the secret config value `secretValue`. */
  secret?: boolean;
  /** Name of an earlier item whose id goes into input `ref`. */
  refTo?: string;
  /** Changing it forces a replace; the key stays, so create-before-delete would collide. */
  generation?: number;
  deleteBeforeReplace?: boolean;
  /** Diff asks for deleteBeforeReplace itself. */
  dbrFromDiff?: boolean;
  ignoreChanges?: string[];
  importId?: string;
  additionalSecretOutputs?: string[];
}

// Replaced by `configure` inside the host; `this` is the deserialized provider object.
const provider = {
  dataDir: "",
  label: "",

  async configure(req: { config: { get(key: string): string | undefined; require(key: string): string } }) {
    this.dataDir = req.config.require("dataDir");
    this.label = req.config.get("label") ?? "";
  },

  async check(_olds: any, news: any) {
    const failures = [];
    if (typeof news.value === "string" && news.value.includes("INVALID")) {
      failures.push({ property: "value", reason: "must not contain INVALID" });
    }
    return { inputs: news, failures };
  },

  async diff(_id: string, olds: any, news: any) {
    const differs = (k: string) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]);
    const replaces = ["key", "generation"].filter(differs);
    const changes = replaces.length > 0 || ["value", "secretValue", "ref"].some(differs);
    return { changes, replaces, deleteBeforeReplace: news.dbrFromDiff === true };
  },

  async create(inputs: any) {
    const fs = require("node:fs");
    const path = require("node:path");
    const dir = path.join(this.dataDir, "objects");
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(dir)) {
      const other = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      if (other.key === inputs.key)
        throw new Error(`key "${inputs.key}" already exists (object ${other.id})`);
    }
    const id = `obj-${inputs.key}-${Math.random().toString(16).slice(2, 10)}`;
    const outs = {
      ...this.fields(inputs),
      id,
      pid: process.pid,
      argv: process.argv.join(" "),
    };
    this.write(outs);
    this.event(`create ${inputs.key} ${id}`);
    return { id, outs };
  },

  async read(id: string, props: any) {
    const fs = require("node:fs");
    const file = require("node:path").join(this.dataDir, "objects", `${id}.json`);
    if (!fs.existsSync(file)) return { id: "", props: {} };
    return { id, props: { ...props, ...JSON.parse(fs.readFileSync(file, "utf8")) } };
  },

  async update(id: string, olds: any, news: any) {
    const outs = { ...olds, ...this.fields(news), id };
    this.write(outs);
    this.event(`update ${news.key} ${id}`);
    return { outs };
  },

  async delete(id: string, props: any) {
    const fs = require("node:fs");
    fs.rmSync(require("node:path").join(this.dataDir, "objects", `${id}.json`), { force: true });
    this.event(`delete ${props.key} ${id}`);
  },

  // Only defined fields: an `undefined` output would break the host's reply.
  fields(inputs: any) {
    const out: Record<string, unknown> = { key: inputs.key, label: this.label };
    for (const k of ["value", "secretValue", "ref", "generation"])
      if (inputs[k] !== undefined) out[k] = inputs[k];
    return out;
  },

  write(outs: any) {
    const fs = require("node:fs");
    const path = require("node:path");
    const { pid, argv, ...stored } = outs;
    fs.writeFileSync(path.join(this.dataDir, "objects", `${outs.id}.json`), JSON.stringify(stored));
  },

  event(line: string) {
    require("node:fs").appendFileSync(require("node:path").join(this.dataDir, "events.log"), `${line}\n`);
  },
};

class Obj extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  declare readonly secretValue: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string>;
  declare readonly pid: pulumi.Output<number>;
  declare readonly argv: pulumi.Output<string>;
  declare readonly ref: pulumi.Output<string>;

  constructor(name: string, args: Record<string, pulumi.Input<any>>, opts?: pulumi.CustomResourceOptions) {
    const outs = {
      value: undefined,
      secretValue: undefined,
      label: undefined,
      pid: undefined,
      argv: undefined,
      ref: undefined,
    };
    super(provider as pulumi.dynamic.ResourceProvider, name, { ...outs, ...args }, opts, "harness", "Obj");
  }
}

const config = new pulumi.Config();
const spec: { items: Item[] } = JSON.parse(config.get("spec") ?? '{"items":[]}');
const objects: Record<string, Obj> = {};
for (const item of spec.items) {
  objects[item.name] = new Obj(
    item.name,
    {
      key: item.key,
      value: item.value,
      secretValue: item.secret ? config.requireSecret("secretValue") : undefined,
      ref: item.refTo ? objects[item.refTo].id : undefined,
      generation: item.generation,
      dbrFromDiff: item.dbrFromDiff,
    },
    {
      deleteBeforeReplace: item.deleteBeforeReplace,
      ignoreChanges: item.ignoreChanges,
      import: item.importId,
      additionalSecretOutputs: item.additionalSecretOutputs,
    },
  );
}

export const label = config.get("label");
export const ids = Object.fromEntries(Object.entries(objects).map(([n, o]) => [n, o.id]));
export const secrets = Object.fromEntries(Object.entries(objects).map(([n, o]) => [n, o.secretValue]));
// The process the program ran in (the harness runs it in a process of its own, as the CLI does).
export const programPid = process.pid;
