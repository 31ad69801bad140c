// Proof that declared access is real, on the mock over HTTPS (test/access-proof-support.ts): apply,
// enroll both identities with enrollIdentity, log in with their certificates, list their services.

import { proveAccess } from "./access-proof-support";
import { mockConfig } from "./support/engine";
import { useMock } from "./support/fixtures";

describe("Access proof on the mock: enrolled identities see exactly the services their policies grant", function () {
  this.timeout(180_000);
  const mock = useMock({ tls: true });

  it("member of the Dial group sees the service, the outsider does not; destroy removes them", async () => {
    await proveAccess(
      {
        url: mock.url,
        settings: mockConfig(mock),
        exists: async (collection, id) => mock.edge.get(collection as "services", id) !== undefined,
      },
      "proof",
    );
  });
});
