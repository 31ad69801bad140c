// The entry point package.json names: the Pulumi CLI's Node.js language host runs this file, not
// index.js or index.ts beside package.json. Plain JavaScript, as a user without TypeScript writes it.
const frontdoor = require("pulumi-frontdoor");

const service = new frontdoor.Service("app", { name: "js-main-app", roleAttributes: ["js-main"] });

exports.entry = "src/app.js";
exports.serviceId = service.id;
