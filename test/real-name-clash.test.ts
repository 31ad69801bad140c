// What a real OpenZiti controller answers to a create whose name is taken, and what the provider then
// does (`ziti` built by `npm run peers`, on 127.0.0.1 only): the controller refuses with 400 (not
// 409) COULD_NOT_VALIDATE, cause field `name`: "duplicate value '<name>' in unique index on
// identities store" for identities, "name must be unique" for services (and most other kinds); the
// provider recognises that as a name clash, adopts an object that matches its declaration (same id,
// no duplicate), and refuses one that differs with an error naming its id and the import option.
import assert from "node:assert/strict";
import { createChecked, engine } from "./edge-support";
import { useController } from "./support/fixtures";

describe("Real OpenZiti controller: name clashes on create", function () {
  this.timeout(300_000);
  const ctrl = useController({ provider: true });

  /** Made by another admin, outside the provider. */
  async function makeElsewhere(collection: string, body: Record<string, unknown>): Promise<string> {
    const answer = await ctrl.admin.call("POST", `/${collection}`, { body });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data.id;
  }
  const named = async (collection: string, name: string): Promise<string[]> => {
    const answer = await ctrl.admin.call(
      "GET",
      `/${collection}?filter=${encodeURIComponent(`name="${name}"`)}`,
    );
    return (answer.body.data as { id: string }[]).map((item) => item.id);
  };

  const cases = [
    {
      kind: "Identity",
      collection: "identities",
      body: (name: string) => ({ name, type: "User", isAdmin: false, roleAttributes: ["clash"] }),
      inputs: (name: string) => ({ name, type: "User", roleAttributes: ["clash"] }),
      differing: { roleAttributes: ["other"] },
      differs: "roleAttributes",
      reason: /^duplicate value 'raw-clash-identities' in unique index on identities store$/,
    },
    {
      kind: "Service",
      collection: "services",
      body: (name: string) => ({ name, encryptionRequired: true, roleAttributes: ["clash"] }),
      inputs: (name: string) => ({ name, roleAttributes: ["clash"] }),
      differing: { encryptionRequired: false },
      differs: "encryptionRequired",
      reason: /^name must be unique$/,
    },
  ];

  for (const c of cases) {
    it(`${c.kind}: the controller answers 400 COULD_NOT_VALIDATE (cause: name) to a second create of a name`, async () => {
      const name = `raw-clash-${c.collection}`;
      const id = await makeElsewhere(c.collection, c.body(name));
      const again = await ctrl.admin.call("POST", `/${c.collection}`, { body: c.body(name) });
      assert.equal(again.status, 400, JSON.stringify(again.body));
      assert.equal(again.body.error.code, "COULD_NOT_VALIDATE");
      assert.equal(again.body.error.cause?.field, "name", JSON.stringify(again.body.error));
      assert.match(String(again.body.error.cause?.reason), c.reason, JSON.stringify(again.body.error));
      assert.deepEqual(await named(c.collection, name), [id]);
      await ctrl.admin.call("DELETE", `/${c.collection}/${id}`);
    });

    it(`${c.kind}: an identical object is adopted (same id, none made); a differing one is named with its id and the import option`, async () => {
      const name = `adopt-clash-${c.collection}`;
      const theirs = await makeElsewhere(c.collection, c.body(name));
      const adopted = await createChecked(c.kind, c.inputs(name));
      assert.equal(adopted.id, theirs);
      assert.deepEqual(await named(c.collection, name), [theirs]);
      await engine.remove(c.kind, adopted.id, adopted.outs);

      const other = `differ-clash-${c.collection}`;
      const elsewhere = await makeElsewhere(c.collection, { ...c.body(other), ...c.differing });
      const error = await createChecked(c.kind, c.inputs(other)).catch((e) => e);
      assert.match(
        String(error?.message),
        new RegExp(
          `${c.kind} "${other}": an object of that name already exists \\(id ${elsewhere}\\) \\(POST /${c.collection}: ` +
            `HTTP 400: .*\\(name: .*\\)\\) and differs from the declaration in ${c.differs}: not adopted.*` +
            `import: "${elsewhere}"`,
        ),
      );
      assert.deepEqual(await named(c.collection, other), [elsewhere]);
      await ctrl.admin.call("DELETE", `/${c.collection}/${elsewhere}`);
    });
  }
});
