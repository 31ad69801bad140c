// The roles rule's controller look-up has a budget of its own (CONTROLLER_BUDGET_SECONDS, or the rule's
// controllerTimeoutSeconds): with the controller unreachable (a closed port) or silent (a server that
// accepts and never answers) the preview does not wait out the provider's 120 s of retries; the rule
// falls back to the stack alone and says why. Asserted through the rule's own outcome, with slack.
import assert from "node:assert/strict";
import * as net from "node:net";
import { frontdoorPolicies } from "../provider/policy";
import { CONTROLLER_BUDGET_SECONDS, readController } from "../provider/policy/controller";
import type { AnalyzedResource } from "../provider/policy/resources";
import { RULES, type Rule, withDefaults } from "../provider/policy/rules";

const declared: AnalyzedResource[] = [
  {
    type: "frontdoor:index:ServicePolicy",
    urn: "urn:pulumi:dev::p::frontdoor:index:ServicePolicy::p",
    name: "p",
    props: { identityRoles: ["#nobody"], serviceRoles: ["#all"] },
  },
];

describe("policy pack: the controller look-up has a budget of its own", function () {
  this.timeout(60_000);

  /** The roles rule's outcome, through its policy, with the controller at `url` and `config`. */
  async function rolesRuleAgainst(url: string, config: Record<string, unknown>) {
    const policy = frontdoorPolicies().find((p) => p.name === "frontdoor-policy-roles-match");
    const saved = { ...process.env };
    Object.assign(process.env, {
      ZITI_EDGE_URL: url,
      ZITI_USERNAME: "admin",
      ZITI_PASSWORD: "unknowns-pw-1",
    });
    const found: string[] = [];
    try {
      const started = Date.now();
      await policy?.validateStack?.({ resources: declared, getConfig: <T>() => config as T }, (message) =>
        found.push(message),
      );
      return { found, seconds: (Date.now() - started) / 1000 };
    } finally {
      for (const key of ["ZITI_EDGE_URL", "ZITI_USERNAME", "ZITI_PASSWORD"]) delete process.env[key];
      Object.assign(process.env, saved);
    }
  }

  /** A port nothing listens on: bound, then closed. */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it("the default budget is a few seconds, and the rule's config can set it", () => {
    assert.ok(
      CONTROLLER_BUDGET_SECONDS >= 1 && CONTROLLER_BUDGET_SECONDS <= 10,
      String(CONTROLLER_BUDGET_SECONDS),
    );
    const rule = RULES.find((r) => r.name === "frontdoor-policy-roles-match") as Rule;
    assert.equal(withDefaults(rule, {}).controllerTimeoutSeconds, CONTROLLER_BUDGET_SECONDS);
  });

  it("a closed port: the rule falls back to the stack alone within the budget, and says why", async () => {
    const port = await closedPort();
    const { found, seconds } = await rolesRuleAgainst(`https://127.0.0.1:${port}`, {
      controllerTimeoutSeconds: 2,
    });
    assert.equal(found.length, 1, found.join("\n"));
    assert.match(
      found[0],
      /selects no Identity of this stack \(controller not consulted: the controller (could not be read|did not answer within 2 s)/,
    );
    assert.ok(!found[0].includes("unknowns-pw-1"), "the password is in the message");
    // The budget plus generous slack (a loaded machine); the provider's own retry budget is 120 s.
    assert.ok(seconds < 2 + 20, `the look-up took ${seconds} s`);
  });

  it("a controller that accepts and never answers: the look-up ends at the budget", async () => {
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const view = await readController(
        {
          ZITI_EDGE_URL: `https://127.0.0.1:${port}`,
          ZITI_USERNAME: "admin",
          ZITI_PASSWORD: "unknowns-pw-1",
        },
        1,
      );
      assert.ok("unknown" in view, JSON.stringify(view));
      assert.match(view.unknown, /did not answer within 1 s|could not be read/);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });
});
