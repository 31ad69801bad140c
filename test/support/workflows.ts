// A small runner of GitHub Actions workflows, for testing the workflow files users copy (examples/gitops):
// it reads the YAML and runs one job's steps on this machine, in a copy of a user's repository.
// - `run:` steps through `bash -e` (GitHub's default shell on Linux) with their working-directory and
//   env; GITHUB_STEP_SUMMARY is a file; `gh` is a stand-in on PATH that records `gh pr comment`.
// - `actions/checkout` copies the user's repository into the workspace (without node_modules: git
//   would not have them); `actions/setup-node` checks its cache inputs against the files present
//   (`cache: npm` without a lockfile fails, as on GitHub); `pulumi/actions` runs the CLI commands its
//   inputs mean (without `command` it only installs the CLI: the machine's is on PATH); `actions/github-script` runs its script with `github.rest.issues` a stand-in that
//   records the calls (listForRepo answers the given open issues; create, update and createComment),
//   `context.repo`/`serverUrl`/`runId`, `require`, and `process.env` the step's environment.
// - GITHUB_OUTPUT: a step's `name=value` lines are its outputs (`steps.<id>.outputs.<name>`).
// - `${{ }}` expressions: secrets.X and vars.X from the given tables (a missing one is an error, not
//   GitHub's empty string: the test must provide what the workflow reads), github.event.*,
//   steps.<id>.outputs.<name>, and in `if:` the status functions, steps.<id>.outcome/conclusion, ==,
//   !=, !, &&, || and parentheses.
// - `permissions: id-token: write` (workflow or job): the steps get ACTIONS_ID_TOKEN_REQUEST_URL and
//   ACTIONS_ID_TOKEN_REQUEST_TOKEN of the given `oidc` token endpoint, as GitHub gives them; without
//   that permission they get neither.
// Anything else (another action, an input or a key the runner does not know) fails loudly: a workflow
// the runner only half understands must not pass.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { collectOutput } from "../../harness/output";
import { REPO_ROOT } from "../peers/index";
import { withNpmRetry } from "./npmRetry";

const yaml: { load(text: string): any } = require("js-yaml");

export interface WorkflowRunOptions {
  /** The workflow file (in the user's repository). */
  workflow: string;
  /** The event that starts it: its name must be among the workflow's `on:` triggers. */
  event: { name: string; payload?: Record<string, unknown> };
  /** The user's repository: what actions/checkout checks out. */
  repository: string;
  /** An empty folder: the job's GITHUB_WORKSPACE. */
  workspace: string;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  /** The runner machine's environment (PATH with the pulumi CLI, the backend, ...). */
  env: NodeJS.ProcessEnv;
  /** GitHub's OIDC token request endpoint, for jobs with `permissions: id-token: write`. */
  oidc?: { requestUrl: string; requestToken: string };
  /** The repository as GitHub names it (`owner/name`: github-script's `context.repo`). */
  repositoryName?: string;
  /** The repository's open issues, as `github.rest.issues.listForRepo` answers them to scripts. */
  openIssues?: { number: number; title: string }[];
}

/** A call of a github-script step to GitHub's issues API (`create`, `update`, `createComment`, ...). */
export interface GithubCall {
  method: string;
  params: Record<string, any>;
}

export interface StepResult {
  name: string;
  id?: string;
  /** The action it used without its ref (`pulumi/actions` for `pulumi/actions@<sha>`). */
  action?: string;
  outcome: "success" | "failure" | "skipped";
  /** The outcome after continue-on-error. */
  conclusion: "success" | "failure" | "skipped";
  /** The command the step ran (a pulumi/actions step: the CLI's arguments). */
  command?: string;
  output: string;
  /** What the step wrote to GITHUB_OUTPUT. */
  outputs: Record<string, string>;
}

export interface JobResult {
  conclusion: "success" | "failure";
  steps: StepResult[];
  /** Pull request comments: pulumi/actions' comment-on-pr and `gh pr comment`. */
  comments: string[];
  /** The scripts of actions/github-script steps that ran. */
  githubScripts: string[];
  /** Their calls to GitHub's API, in order (the stand-in records them). */
  github: GithubCall[];
  /** What the steps wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The step by id, name or action (`owner/repo`, whatever its pinned ref); throws when there is none. */
  step(idOrName: string): StepResult;
}

const STEP_KEYS = new Set([
  "id",
  "name",
  "uses",
  "with",
  "run",
  "env",
  "if",
  "working-directory",
  "continue-on-error",
  "shell",
]);
const JOB_KEYS = new Set([
  "runs-on",
  "environment",
  "steps",
  "env",
  "permissions",
  "concurrency",
  "name",
  "timeout-minutes",
]);
const WORKFLOW_KEYS = new Set(["name", "on", "jobs", "permissions", "concurrency", "env"]);
const PULUMI_INPUTS = new Set([
  "command",
  "stack-name",
  "work-dir",
  "refresh",
  "expect-no-changes",
  "diff",
  "policyPacks",
  "comment-on-pr",
  "github-token",
]);
const PULUMI_COMMANDS: Record<string, string[]> = {
  // What the action's Automation API runs for each command.
  preview: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  update: ["up", "--yes", "--skip-preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};
/** The lockfiles actions/setup-node looks for with `cache: npm` and no cache-dependency-path. */
const NPM_LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json", "yarn.lock"];

const GH_STAND_IN = `#!/bin/sh
# Test stand-in for GitHub's CLI: records \`gh pr comment <number> --body-file <file>\`, refuses the rest.
if [ "$1" = pr ] && [ "$2" = comment ] && [ "$4" = --body-file ]; then
  { printf '%s\\n' "--- gh pr comment $3"; cat "$5"; } >> "$GH_STAND_IN_COMMENTS"
  exit 0
fi
echo "gh stand-in: not supported: $*" >&2
exit 1
`;

export async function runWorkflow(options: WorkflowRunOptions): Promise<JobResult> {
  const workflow = yaml.load(fs.readFileSync(options.workflow, "utf8"));
  unknownKeys(workflow, WORKFLOW_KEYS, "workflow");
  const triggers = typeof workflow.on === "string" ? [workflow.on] : Object.keys(workflow.on ?? {});
  if (!triggers.includes(options.event.name))
    throw new Error(`${options.workflow} does not run on ${options.event.name} (on: ${triggers.join(", ")})`);
  const jobs = Object.entries<any>(workflow.jobs ?? {});
  if (jobs.length !== 1) throw new Error(`${options.workflow}: the runner runs workflows of one job`);
  const [jobName, job] = jobs[0];
  unknownKeys(job, JOB_KEYS, `job ${jobName}`);

  const idToken = idTokenEnv(workflow, job, options);
  const tools = fs.mkdtempSync(path.join(options.workspace, "..", ".runner-"));
  const summaryFile = path.join(tools, "step-summary.md");
  const ghComments = path.join(tools, "gh-comments.md");
  fs.writeFileSync(summaryFile, "");
  fs.writeFileSync(path.join(tools, "gh"), GH_STAND_IN, { mode: 0o755 });
  const steps: StepResult[] = [];
  const comments: string[] = [];
  const githubScripts: string[] = [];
  const github: GithubCall[] = [];
  const context = { ...options, steps };
  try {
    for (const [index, step] of (job.steps as any[]).entries()) {
      unknownKeys(step, STEP_KEYS, `step ${index + 1}`);
      const name = step.name ?? step.id ?? step.uses ?? String(step.run).split("\n")[0];
      const action = step.uses === undefined ? undefined : String(step.uses).replace(/@.*$/, "");
      const failedSoFar = steps.some((s) => s.conclusion === "failure");
      if (!evaluateIf(step.if ?? "success()", context, failedSoFar)) {
        steps.push({
          name,
          id: step.id,
          action,
          outcome: "skipped",
          conclusion: "skipped",
          output: "",
          outputs: {},
        });
        continue;
      }
      const outputFile = path.join(tools, `output-${index}`);
      fs.writeFileSync(outputFile, "");
      const env: NodeJS.ProcessEnv = {
        ...options.env,
        PATH: `${tools}${path.delimiter}${options.env.PATH}`,
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: options.workspace,
        GITHUB_EVENT_NAME: options.event.name,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_OUTPUT: outputFile,
        GH_STAND_IN_COMMENTS: ghComments,
        ...idToken,
        ...substituteAll({ ...workflow.env, ...job.env, ...step.env }, context),
      };
      const result = await runStep(step, env, context, { comments, githubScripts, github });
      const outcome = result.ok ? "success" : "failure";
      const conclusion = !result.ok && step["continue-on-error"] === true ? "success" : outcome;
      const outputs = stepOutputs(fs.readFileSync(outputFile, "utf8"));
      steps.push({
        name,
        id: step.id,
        action,
        outcome,
        conclusion,
        command: result.command,
        output: result.output,
        outputs,
      });
    }
    if (fs.existsSync(ghComments))
      comments.push(...fs.readFileSync(ghComments, "utf8").split(/^--- /m).filter(Boolean));
    const summary = fs.readFileSync(summaryFile, "utf8");
    return {
      conclusion: steps.some((s) => s.conclusion === "failure") ? "failure" : "success",
      steps,
      comments,
      githubScripts,
      github,
      summary,
      step: (idOrName) => {
        const found = steps.find((s) => s.id === idOrName || s.name === idOrName || s.action === idOrName);
        if (!found) throw new Error(`no step ${idOrName}: ${steps.map((s) => s.id ?? s.name).join(", ")}`);
        return found;
      },
    };
  } finally {
    fs.rmSync(tools, { recursive: true, force: true });
  }
}

type Context = WorkflowRunOptions & { steps: StepResult[] };

/** The token request variables a job with `id-token: write` gets (the job's permissions replace the workflow's). */
function idTokenEnv(workflow: any, job: any, options: WorkflowRunOptions): Record<string, string> {
  const permissions = job.permissions ?? workflow.permissions ?? {};
  const granted =
    permissions === "write-all" || (typeof permissions === "object" && permissions["id-token"] === "write");
  if (!granted) return {};
  if (!options.oidc) throw new Error("the job has id-token: write: give the runner an `oidc` token endpoint");
  return {
    ACTIONS_ID_TOKEN_REQUEST_URL: options.oidc.requestUrl,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: options.oidc.requestToken,
  };
}

function unknownKeys(object: Record<string, unknown>, known: Set<string>, where: string): void {
  const unknown = Object.keys(object ?? {}).filter((key) => !known.has(key));
  if (unknown.length) throw new Error(`${where}: the workflow runner does not know ${unknown.join(", ")}`);
}

async function runStep(
  step: any,
  env: NodeJS.ProcessEnv,
  context: Context,
  record: { comments: string[]; githubScripts: string[]; github: GithubCall[] },
): Promise<{ ok: boolean; output: string; command?: string }> {
  const workspace = context.workspace;
  if (step.run !== undefined) {
    if (step.shell !== undefined && step.shell !== "bash")
      throw new Error(`shell ${step.shell} is not supported`);
    const cwd = path.resolve(workspace, step["working-directory"] ?? ".");
    const script = substitute(String(step.run), context);
    // A step's own `npm ci` retried on a registry's transient miss, as a re-run of the job would.
    return run("bash", ["--noprofile", "--norc", "-e", "-c", script], cwd, withNpmRetry(env));
  }
  const uses = String(step.uses ?? "");
  const action = uses.replace(/@.*$/, "");
  const inputs: Record<string, string> = substituteAll(step.with ?? {}, context);
  switch (action) {
    case "actions/checkout":
      fs.cpSync(context.repository, workspace, {
        recursive: true,
        filter: (source) => path.basename(source) !== "node_modules",
      });
      return { ok: true, output: `checked out ${context.repository}` };
    case "actions/setup-node":
      return setupNode(inputs, workspace);
    case "pulumi/actions":
      return pulumiAction(inputs, env, context, record.comments);
    case "actions/github-script":
      record.githubScripts.push(inputs.script ?? "");
      return githubScript(inputs, env, context, record.github);
    default:
      throw new Error(`the workflow runner does not know the action ${uses}`);
  }
}

/** actions/setup-node: the cache's lockfile must exist (its own error otherwise); Node is this machine's. */
function setupNode(inputs: Record<string, string>, workspace: string): { ok: boolean; output: string } {
  unknownKeys(inputs, new Set(["node-version", "cache", "cache-dependency-path"]), "actions/setup-node");
  if (!inputs.cache) return { ok: true, output: "no cache" };
  if (inputs.cache !== "npm") throw new Error(`setup-node cache ${inputs.cache} is not supported`);
  const wanted = inputs["cache-dependency-path"]
    ? inputs["cache-dependency-path"]
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
    : NPM_LOCKFILES;
  if (wanted.some((p) => /[*?[]/.test(p))) throw new Error("cache-dependency-path globs are not supported");
  const found = wanted.filter((p) => fs.existsSync(path.join(workspace, p)));
  if (inputs["cache-dependency-path"] ? found.length === wanted.length : found.length > 0)
    return { ok: true, output: `npm cache keyed on ${found.join(", ")}` };
  return {
    ok: false,
    output: `Dependencies lock file is not found in ${workspace}. Supported file patterns: ${wanted.join(",")}`,
  };
}

/** pulumi/actions: selects the stack (it must exist), then runs the command its inputs mean. */
async function pulumiAction(
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv,
  context: Context,
  comments: string[],
): Promise<{ ok: boolean; output: string; command: string }> {
  unknownKeys(inputs, PULUMI_INPUTS, "pulumi/actions");
  // No command: the action only installs the CLI (here: the machine's, on PATH).
  if (inputs.command === undefined) return { ok: true, output: "pulumi CLI installed", command: "" };
  const base = PULUMI_COMMANDS[inputs.command];
  if (!base) throw new Error(`pulumi/actions command ${inputs.command} is not supported`);
  const stack = inputs["stack-name"];
  if (!stack) throw new Error("pulumi/actions needs stack-name");
  const cwd = path.resolve(context.workspace, inputs["work-dir"] ?? ".");
  const flag = (name: string) => inputs[name] === "true";
  const args = [...base, "--stack", stack, "--non-interactive"];
  if (flag("refresh")) args.push("--refresh");
  if (flag("expect-no-changes")) args.push("--expect-no-changes");
  if (flag("diff")) args.push("--diff");
  for (const pack of (inputs.policyPacks ?? "")
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean))
    args.push("--policy-pack", pack);
  const select = await run("pulumi", ["stack", "select", stack, "--non-interactive"], cwd, env);
  if (!select.ok) return { ...select, command: `pulumi stack select ${stack}` };
  const result = await run("pulumi", args, cwd, env);
  if (flag("comment-on-pr") && context.event.name === "pull_request") comments.push(result.output);
  return { ...result, command: `pulumi ${args.join(" ")}` };
}

async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; output: string }> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), "SIGKILL"); // the step and whatever it started
    } catch {
      // gone
    }
  }, 600_000);
  const { code, stdout, stderr } = await collectOutput(child).finally(() => clearTimeout(timer));
  return { ok: code === 0, output: `${stdout}${stderr}` };
}

/** GITHUB_OUTPUT's `name=value` lines (the multiline `name<<DELIMITER` form is not supported). */
function stepOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of text.split("\n").filter(Boolean)) {
    const at = line.indexOf("=");
    if (at <= 0) throw new Error(`GITHUB_OUTPUT: the workflow runner does not read ${JSON.stringify(line)}`);
    outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor;

/** actions/github-script: the script as an async function body, against a recording stand-in of the issues API. */
async function githubScript(
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv,
  context: Context,
  calls: GithubCall[],
): Promise<{ ok: boolean; output: string }> {
  unknownKeys(inputs, new Set(["script"]), "actions/github-script");
  let next = 1000;
  const call = (method: string, answer: (params: Record<string, any>) => unknown) => async (params: any) => {
    calls.push({ method, params });
    return { data: answer(params) };
  };
  const issues = {
    listForRepo: call("issues.listForRepo", () => context.openIssues ?? []),
    create: call("issues.create", () => ({ number: next++ })),
    update: call("issues.update", (p) => ({ number: p.issue_number })),
    createComment: call("issues.createComment", () => ({ id: next++ })),
  };
  const github = { rest: { issues } };
  const [owner, repo] = (context.repositoryName ?? "owner/repo").split("/");
  const ghContext = {
    repo: { owner, repo },
    serverUrl: "https://github.com",
    runId: 4242,
    eventName: context.event.name,
  };
  const scriptRequire = createRequire(path.join(context.workspace, "github-script.js"));
  try {
    const fn = new AsyncFunction("require", "github", "context", "process", String(inputs.script ?? ""));
    await fn(scriptRequire, github, ghContext, { env });
    return { ok: true, output: "github-script ran" };
  } catch (error) {
    return { ok: false, output: `github-script failed: ${(error as Error).stack}` };
  }
}

/** `${{ expr }}` in a value replaced by its value (a string). */
function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => String(contextValue(expr, context)));
}

function substituteAll(values: Record<string, unknown>, context: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, substitute(String(v), context)]));
}

/** A context reference: secrets.X, vars.X, github.event.a.b, steps.<id>.outcome|conclusion. */
function contextValue(reference: string, context: Context): string | number | boolean | undefined {
  const [head, ...rest] = reference.split(".");
  const table = head === "secrets" ? context.secrets : head === "vars" ? context.vars : undefined;
  if (table) {
    if (rest.length !== 1 || !(rest[0] in table))
      throw new Error(`${reference} is not provided to the workflow runner`);
    return table[rest[0]];
  }
  if (head === "github" && rest[0] === "event") {
    let value: any = context.event.payload ?? {};
    for (const key of rest.slice(1)) value = value?.[key];
    if (value === undefined) throw new Error(`${reference} is not in the event's payload`);
    return value;
  }
  if (head === "steps" && rest.length === 2 && (rest[1] === "outcome" || rest[1] === "conclusion")) {
    const step = context.steps.find((s) => s.id === rest[0]);
    return step ? step[rest[1] as "outcome" | "conclusion"] : "";
  }
  if (head === "steps" && rest.length === 3 && rest[1] === "outputs")
    return context.steps.find((s) => s.id === rest[0])?.outputs[rest[2]] ?? "";
  throw new Error(`the workflow runner cannot evaluate ${reference}`);
}

/** An `if:` condition: status functions, references, string literals, ==, !=, !, &&, ||, ( ). */
function evaluateIf(condition: string, context: Context, failedSoFar: boolean): boolean {
  const source = condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const tokens = source.match(/\|\||&&|==|!=|!|\(|\)|'[^']*'|[\w.-]+(?:\(\))?|\S/g) ?? [];
  let at = 0;
  const next = () => tokens[at++];
  const expect = (token: string) => {
    if (next() !== token) throw new Error(`if: ${condition}: expected ${token}`);
  };
  const operand = (): string | boolean => {
    const token = next();
    if (token === undefined) throw new Error(`if: ${condition}: incomplete`);
    if (token === "(") {
      const value = or();
      expect(")");
      return value;
    }
    if (token === "!") return !truthy(operand());
    if (token.startsWith("'")) return token.slice(1, -1);
    if (token === "true" || token === "false") return token === "true";
    const status: Record<string, boolean> = {
      "success()": !failedSoFar,
      "failure()": failedSoFar,
      "always()": true,
      "cancelled()": false,
    };
    if (token in status) return status[token];
    return String(contextValue(token, context) ?? "");
  };
  const comparison = (): string | boolean => {
    const left = operand();
    if (tokens[at] === "==" || tokens[at] === "!=") {
      const equal = next() === "==";
      return (String(left) === String(operand())) === equal;
    }
    return left;
  };
  const and = (): string | boolean => {
    let value = comparison();
    while (tokens[at] === "&&") {
      next();
      const right = comparison();
      value = truthy(value) && truthy(right);
    }
    return value;
  };
  const or = (): string | boolean => {
    let value = and();
    while (tokens[at] === "||") {
      next();
      const right = and();
      value = truthy(value) || truthy(right);
    }
    return value;
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`if: ${condition}: unexpected ${tokens[at]}`);
  return truthy(value);
}

function truthy(value: string | boolean): boolean {
  return value !== "" && value !== false;
}

/** Folders that hold no workflow of ours (installed packages, build output, test work copies). */
const NOT_SEARCHED = new Set(["node_modules", ".git", ".peers", "bin", "dist", "sdk"]);

/** Every `.github/workflows/*.yml|yaml` under `dir` (the repository), at any depth. */
export function workflowFiles(dir: string = REPO_ROOT): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || NOT_SEARCHED.has(entry.name) || entry.name.startsWith(".work")) continue;
    const child = path.join(dir, entry.name);
    if (entry.name === "workflows" && path.basename(dir) === ".github")
      for (const file of fs.readdirSync(child)) if (/\.ya?ml$/.test(file)) found.push(path.join(child, file));
    found.push(...workflowFiles(child));
  }
  return found.sort();
}
