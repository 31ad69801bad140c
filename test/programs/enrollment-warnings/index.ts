// A new identity and a new edge router, each with the enrollment the controller issues (180 minutes):
// fresh when created, so neither warns until it is old and still unused (docs/guides/expiry-warnings.md).
import * as frontdoor from "pulumi-frontdoor";

const laptop = new frontdoor.Identity("laptop", { name: "warn-laptop", enrollment: { ott: true } });
const router = new frontdoor.EdgeRouter("router", { name: "warn-router" });

export const identityId = laptop.id;
export const routerId = router.id;
