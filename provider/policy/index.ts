// The policy pack's policies, in the shape @pulumi/policy's PolicyPack takes (its ResourceValidationPolicy
// and StackValidationPolicy: plain objects, so this module needs no @pulumi/policy at run time and the
// package does not depend on it). The pack itself (policy/index.js in the package) is two lines:
//   new PolicyPack("frontdoor", { policies: frontdoorPolicies() })
// and a pack of a user's own can add these policies to its own.
import { readController } from "./controller";
import { type AnalyzedResource, type PolicyResource, policyResource } from "./resources";
import { type EnforcementLevel, RULES, type Rule, type RuleContext, withDefaults } from "./rules";

export { RULES, type Rule } from "./rules";

type ReportViolation = (message: string, urn?: string) => void;

interface ValidationArgs {
  getConfig<T extends object>(): T;
}

export interface FrontdoorPolicy {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  configSchema: { properties: Rule["config"] };
  validateResource?: (args: AnalyzedResource & ValidationArgs, report: ReportViolation) => void;
  validateStack?: (
    args: { resources: AnalyzedResource[] } & ValidationArgs,
    report: ReportViolation,
  ) => void | Promise<void>;
}

const ours = (resources: AnalyzedResource[]): PolicyResource[] =>
  resources.map(policyResource).filter((r): r is PolicyResource => r !== undefined);

/** Every rule as a policy; `enforcementLevel` overrides each rule's own default level. */
export function frontdoorPolicies(options: { enforcementLevel?: EnforcementLevel } = {}): FrontdoorPolicy[] {
  return RULES.map((rule): FrontdoorPolicy => {
    const policy: FrontdoorPolicy = {
      name: rule.name,
      description: rule.description,
      enforcementLevel: options.enforcementLevel ?? rule.enforcementLevel,
      configSchema: { properties: rule.config },
    };
    const config = (args: ValidationArgs) => withDefaults(rule, args.getConfig<Record<string, unknown>>());
    if (rule.scope === "resource") {
      // The resource alone: the engine calls it with each resource's inputs as it registers.
      policy.validateResource = (args, report) => {
        for (const v of rule.check(ours([args]), config(args))) report(v.message);
      };
    } else {
      policy.validateStack = (args, report) => {
        const settings = config(args);
        const run = (context: RuleContext) => {
          for (const v of rule.check(ours(args.resources), settings, context)) report(v.message, v.urn);
        };
        // The controller, read once per preview for the rule that asks (and the config allows); a
        // promise only when there is one to read.
        if (!rule.usesController || !settings.consultController) return run({});
        const controller = readController(process.env, settings.controllerTimeoutSeconds);
        if (!(controller instanceof Promise)) return run({ controller });
        return controller.then((view) => run({ controller: view }));
      };
    }
    return policy;
  });
}
