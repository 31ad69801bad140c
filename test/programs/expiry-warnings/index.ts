// Objects that expire: an uploaded client certificate (stack config `certPem`, its validity chosen by
// the test) and a certificate request token (its lifetime set by the mock). The program warns when
// either is within the window (frontdoor:expiryWarningDays, or each kind's default).
import * as pulumi from "@pulumi/pulumi";
import * as frontdoor from "pulumi-frontdoor";

const config = new pulumi.Config();

const partner = new frontdoor.ClientCertificate("partner", {
  name: "expiring-partner",
  value: config.require("certPem"),
});
const enrol = new frontdoor.CertificateRequestToken("enrol", { name: "expiring-enrol" });

export const certificateDaysLeft = partner.daysUntilExpiry;
export const tokenDaysLeft = enrol.daysUntilExpiry;
export const tokenStatus = enrol.status;
