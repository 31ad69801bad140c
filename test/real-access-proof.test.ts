// Proof that declared access is real, on a real OpenZiti controller (`ziti edge quickstart`, built by
// `npm run peers`): the access-proof program applied through the dynamic-provider host, both identities
// enrolled with enrollIdentity (the controller signs their CSRs), certificate login to the client API,
// and the services each one sees (test/access-proof-support.ts).
import { proveAccess } from "./access-proof-support";
import { realEdgeConfig } from "./peers/controller";
import { useController } from "./support/fixtures";

describe("Real OpenZiti controller: enrolled identities see exactly the services their policies grant", function () {
  this.timeout(300_000);
  const ctrl = useController();

  it("member of the Dial group sees the service, the outsider does not; destroy removes them", async () => {
    await proveAccess(
      {
        url: ctrl.url,
        settings: realEdgeConfig(ctrl),
        exists: async (collection, id) =>
          (await ctrl.admin.call("GET", `/${collection}/${id}`)).status === 200,
      },
      "proof",
    );
  });
});
