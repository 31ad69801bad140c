// CustomFrontend through the provider's host entry points against the mock's state machine
// (NEW -> PENDING -> ACTIVE, DNS records 400 while NEW), over real HTTP.
import * as assert from "node:assert/strict";
import { type MockServer, startMockServer } from "../mock/server";
import type { Props } from "../provider/resource";
import { configureFor, createChecked, engine, mockConfig, updateChecked } from "./support/engine";

const KIND = "CustomFrontend";
const apiKey = (name: string) => ({
  name,
  type: "API_KEY",
  data: { header_name: "x-api-key", api_key: "0123456789abcdef-key" },
});

describe("CustomFrontend (engine against the mock)", () => {
  let mock: MockServer;
  let fd: string;
  before(async () => {
    mock = await startMockServer({ frontdoor: { customFrontendReadyAfterMs: 300 } });
    fd = mock.credentials.frontdoorId;
  });
  after(() => mock.close());
  beforeEach(async () => {
    await configureFor(mockConfig(mock));
    mock.clearLog();
  });

  it("waits for the DNS records, maps them for DNS providers; status changes are not drift", async () => {
    const a = await createChecked("AuthProvider", apiKey("cf-a"));
    const b = await createChecked("AuthProvider", apiKey("cf-b"));
    const declared = { hostname: "apps.example.com", authProviderIds: [a.id, b.id] };
    const started = Date.now();
    const { id, outs } = await createChecked(KIND, declared);
    assert.ok(Date.now() - started >= 300, "returned before the records could exist");
    assert.equal(outs.status, "PENDING");
    assert.equal(outs.domainName, "apps.example.com");
    assert.equal(outs.waitForActive, false);
    assert.equal(outs.readyTimeoutSeconds, 600);
    assert.match(outs.frontendId as string, /^fe-/);
    const records = outs.dnsRecords as any;
    assert.equal(records.aRecord.name, "*.apps.example.com");
    assert.equal(records.aRecord.ipAddresses.length, 2);
    for (const ip of records.aRecord.ipAddresses) assert.match(ip, /^192\.0\.2\.\d+$/);
    assert.equal(records.cnameRecords.length, 1);
    assert.equal(records.cnameRecords[0].name, "_acme-challenge.apps.example.com");
    assert.match(records.cnameRecords[0].value, /\.validation\.frontdoor-mock\.example$/);
    // Polling backs off: a few GETs, not one every few milliseconds.
    const polls = mock.log.filter((e) => e.method === "GET" && !e.path.endsWith("dns-records")).length;
    assert.ok(polls >= 2 && polls <= 5, `${polls} polls`);

    // The DNS records propagate; the service marks it ACTIVE: refresh shows it, the diff ignores it.
    mock.frontdoor.setCustomFrontendStatus(fd, id, "ACTIVE");
    const read = await engine.read(KIND, id, outs);
    assert.equal(read.props!.status, "ACTIVE");
    assert.deepEqual(read.props!.dnsRecords, outs.dnsRecords);
    const inputs = (await checked({ ...declared, authProviderIds: [b.id, a.id] })).inputs;
    assert.equal((await engine.diff(KIND, id, read.props!, inputs)).changes, false, "order is no change");

    // Updating an auth provider that the frontend uses keeps the frontend working.
    await updateChecked("AuthProvider", a.id, a.outs, { ...apiKey("cf-a"), enabled: false });
    assert.equal(
      (await engine.read(KIND, id, read.props!)).props!.authProviderIds!.toString(),
      [a.id, b.id].toString(),
    );

    // Deleting an auth provider still in use fails naming the frontend.
    await assert.rejects(engine.remove("AuthProvider", a.id, a.outs), (err: Error) => {
      assert.match(err.message, /AuthProvider "cf-a": DELETE .* failed \(HTTP 409 conflict\)/);
      assert.match(err.message, /used by custom frontend\(s\) 'apps\.example\.com'/);
      return true;
    });

    // authProviderIds change in place (PATCH); hostname and frontendId replace.
    mock.clearLog();
    const patched = await updateChecked(KIND, id, read.props!, { ...declared, authProviderIds: [b.id] });
    assert.deepEqual(patched.diff.replaces, []);
    assert.equal(mock.log[0].method, "PATCH");
    assert.deepEqual(patched.result!.outs.authProviderIds, [b.id]);
    const after = patched.result!.outs;
    const rehost = (await checked({ ...declared, hostname: "web.example.com" })).inputs;
    assert.deepEqual((await engine.diff(KIND, id, after, rehost)).replaces, ["hostname"]);
    const refe = (await checked({ ...declared, frontendId: "fe-other" })).inputs;
    assert.deepEqual((await engine.diff(KIND, id, after, refe)).replaces, ["frontendId"]);

    // Import by <frontdoorId>/<id> with the program's inputs.
    const imported = await engine.read(KIND, `${fd}/${id}`, {
      hostname: "apps.example.com",
      authProviderIds: [b.id],
    });
    assert.equal(imported.id, id);
    assert.deepEqual(withoutStatus(imported.props!), withoutStatus(after));

    await engine.remove(KIND, id, after);
    assert.deepEqual(await engine.read(KIND, id, after), {});
    await engine.remove("AuthProvider", a.id, a.outs);
    await engine.remove("AuthProvider", b.id, b.outs);
  });

  it("times out stating the last status, as a created-but-not-ready error (no orphan)", async () => {
    // (How fast it gives up is not asserted: a loaded machine is slow; the message names the bound.)
    const err = await engine
      .create(KIND, (await checked({ hostname: "slow.example.com", readyTimeoutSeconds: 0.2 })).inputs)
      .then(
        () => assert.fail("create should time out"),
        (e) => e,
      );
    assert.match(
      err.message,
      /CustomFrontend "slow\.example\.com" \(id .*\) was not its DNS records readable after 0\.2 s \(last status NEW\)/,
    );
    // The host turns an error with id + properties into "created, but failed to initialise": kept in state.
    assert.equal(typeof err.id, "string");
    assert.equal(err.properties.hostname, "slow.example.com");
    assert.equal(err.properties.status, "NEW");
    // The next `up` updates it, which waits again and succeeds.
    const inputs = (await checked({ hostname: "slow.example.com" })).inputs;
    const updated = await engine.update(KIND, err.id, err.properties, inputs);
    assert.equal(updated.outs.status, "PENDING");
    await engine.remove(KIND, err.id, updated.outs);
  });
});

describe("CustomFrontend waitForActive", () => {
  let mock: MockServer;
  before(async () => {
    mock = await startMockServer({
      frontdoor: { customFrontendReadyAfterMs: 100, customFrontendActiveAfterMs: 300 },
    });
  });
  after(() => mock.close());

  it("waits until ACTIVE", async () => {
    await configureFor(mockConfig(mock));
    const { id, outs } = await createChecked(KIND, { hostname: "live.example.com", waitForActive: true });
    assert.equal(outs.status, "ACTIVE");
    assert.equal(outs.waitForActive, true);
    await engine.remove(KIND, id, outs);
  });

  it("a timeout waiting for ACTIVE names the last status", async () => {
    await configureFor(mockConfig(mock));
    const inputs = (
      await checked({ hostname: "late.example.com", waitForActive: true, readyTimeoutSeconds: 0.25 })
    ).inputs;
    const err = await engine.create(KIND, inputs).then(
      () => assert.fail("create should time out"),
      (e) => e,
    );
    assert.match(err.message, /was not ACTIVE after 0\.25 s \(last status PENDING\)/);
    await engine.remove(KIND, err.id, err.properties);
  });
});

/** check, failing on failures: the inputs with defaults applied. */
async function checked(news: Props): Promise<{ inputs: Props }> {
  const result = await engine.check(KIND, {}, news);
  assert.deepEqual(result.failures, []);
  return result;
}

function withoutStatus(props: Props): Props {
  const { status: _status, ...rest } = props;
  return rest;
}
