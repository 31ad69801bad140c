// Every secret of the independent table (test/support/oracles/secrets.ts) through the plugin's gRPC
// interface, served in this process (mutation testing reaches it): each resource output the specs call
// secret arrives marked in Check (its secret inputs), Create and Read, and each secret function result
// in Invoke, with every secret input given as a plain value, so the marking is the plugin's own; the
// plugin's log (debug on) holds none of them in any encoded form. The cases come from
// test/support/secretCases.ts: a kind or function of the table that no case makes fails here.
import assert from "node:assert/strict";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { debugging, restoreDebug, setDebug } from "../provider/log";
import { mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";
import { findLeaks, serverSecrets } from "./support/oracles/leaks";
import { RESOURCE_SECRETS } from "./support/oracles/secrets";
import { js, type PluginServer, servePlugin, struct, URN } from "./support/plugin";
import {
  coverageGaps,
  foundAt,
  prepareSecretCases,
  type SecretCases,
  SecretMarks,
} from "./support/secretCases";
import { captureStderr } from "./support/stderr";

describe("plugin over gRPC: every secret of the table arrives marked, and the log holds none", function () {
  this.timeout(120_000);
  const mock = useMock({ tls: true });
  let plugin: PluginServer;
  let cases: SecretCases;
  let debugWas = false;
  /** The answers checked against the table; the values they carried at secret paths, for the log scan. */
  const resourceMarks = new SecretMarks();
  const functionMarks = new SecretMarks();
  const log: string[] = [];

  before(async () => {
    debugWas = debugging();
    setDebug(true);
    plugin = await servePlugin();
    const req = new provproto.ConfigureRequest();
    req.setArgs(
      struct(
        Object.fromEntries(
          Object.entries(mockConfig(mock)).map(([k, v]) => [k.replace(/^frontdoor:/, ""), v]),
        ),
      ),
    );
    req.setAcceptsecrets(true);
    await plugin.call("configure", req);
    cases = await prepareSecretCases(mock, "grpc-secrets");
  });
  after(async () => {
    restoreDebug(debugWas);
    await plugin?.stop();
  });

  /** A call with the plugin's stderr (its log) kept. */
  const logged = async <T>(work: () => Promise<T>): Promise<T> => {
    const { written, result, error } = await captureStderr(work);
    log.push(...written);
    if (error) throw error;
    return result as T;
  };

  it("a case for every kind and function with a secret output of the table", () => {
    assert.deepEqual(coverageGaps(cases), []);
  });

  it("Check marks the secret inputs given plain; Create and Read mark every secret output", async () => {
    const problems: string[] = [];
    for (const r of cases.resources) {
      const label = `${r.kind} ${r.name}`;
      const urn = URN(r.kind, r.name);
      const check = new provproto.CheckRequest();
      check.setUrn(urn);
      check.setOlds(struct({}));
      check.setNews(struct(r.inputs));
      const checked = await logged(() => plugin.call<provproto.CheckResponse>("check", check));
      assert.deepEqual(checked.getFailuresList(), [], label);
      const inputs = js(checked.getInputs());
      for (const dotted of RESOURCE_SECRETS[r.kind].inputs) {
        const found = foundAt(inputs, dotted);
        if (dotted in flatten(r.inputs) && !found.some((f) => f.marked))
          problems.push(`${label}: input ${dotted} given plain is not marked in Check`);
      }

      const create = new provproto.CreateRequest();
      create.setUrn(urn);
      create.setProperties(checked.getInputs());
      const created = await logged(() => plugin.call<provproto.CreateResponse>("create", create));
      resourceMarks.answer("resource", r.kind, js(created.getProperties()), `Create ${label}`);

      const read = new provproto.ReadRequest();
      read.setId(created.getId());
      read.setUrn(urn);
      read.setProperties(created.getProperties());
      read.setInputs(checked.getInputs());
      const refreshed = await logged(() => plugin.call<provproto.ReadResponse>("read", read));
      resourceMarks.answer("resource", r.kind, js(refreshed.getProperties()), `Read ${label}`);
    }
    assert.deepEqual([...problems, ...resourceMarks.problems()], []);
  });

  it("Invoke marks every secret result of each function, its arguments given plain", async () => {
    for (const i of cases.invokes) {
      const req = new provproto.InvokeRequest();
      req.setTok(`frontdoor:index:${i.fn}`);
      req.setArgs(struct(i.args));
      const res = await logged(() => plugin.call<provproto.InvokeResponse>("invoke", req));
      assert.deepEqual(res.getFailuresList(), [], i.fn);
      functionMarks.answer("function", i.fn, js(res.getReturn()), `Invoke ${i.fn}`);
    }
    assert.deepEqual(functionMarks.problems(), []);
  });

  it("the plugin's log (debug on) holds none of those secrets, given or made, in any encoded form", () => {
    assert.ok(
      log.join("").includes("[frontdoor]"),
      "the debug log was not captured: the scan would be vacuous",
    );
    const found = [...resourceMarks.found, ...functionMarks.found];
    assert.ok(found.length > 0);
    const secrets = [...found, ...cases.given, ...serverSecrets(mock)];
    assert.deepEqual(findLeaks(secrets, [["plugin log", log.join("")]]), []);
  });
});

/** Dotted paths of every leaf of plain inputs. */
function flatten(value: unknown, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value !== null && typeof value === "object" && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) flatten(v, `${prefix}${k}.`, out);
  else out[prefix.slice(0, -1)] = value;
  return out;
}
