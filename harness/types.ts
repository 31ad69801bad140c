// Public types of the harness: its options and the JSON report (`--json`) every command produces.

export type Command = "up" | "preview" | "refresh" | "destroy";

export interface HarnessOptions {
  programDir: string;
  /** Default `<programDir>/.state/<stack>.json`. */
  stateFile?: string;
  /** Default "dev". */
  stack?: string;
  /** Stack config; keys without a namespace get the project name (`apiUrl` -> `<project>:apiUrl`). */
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  /** up/preview: refresh the state from the services first (`pulumi preview --refresh`). */
  refresh?: boolean;
  /** Exit 1 if anything would change / changed (refresh: drift or a deleted object). */
  expectNoChanges?: boolean;
  /**
   * refresh: pending creates left by an interrupted run whose object exists, as a flat list
   * `[urn, id, urn, id, ...]` like `pulumi refresh --import-pending-creates <urn> --import-pending-creates <id>`:
   * the object is read by id and recorded as the resource.
   */
  importPendingCreates?: string[];
  /** refresh: drop every pending create from the state (`pulumi refresh --clear-pending-creates`). */
  clearPendingCreates?: boolean;
  /** Concurrent steps, default 16. */
  parallel?: number;
  /** Extra environment for the harness process and the host it starts. */
  env?: Record<string, string>;
  /** Pass `--debug`: the host's output (with the provider's debug log) goes to the harness's stderr. */
  debug?: boolean;
  /** runHarness: also copy the harness's stderr to this process's stderr as it comes. */
  echo?: boolean;
}

export type Op = "create" | "update" | "replace" | "delete" | "same" | "import" | "refresh";

export interface ResourceReport {
  urn: string;
  type: string;
  name: string;
  /** "" when not known (preview of a create or replace). */
  id: string;
  op: Op;
  /** Outputs with secrets shown as "[secret]" (`__provider` left out). */
  outputs: Record<string, any>;
  /** Byte length of the serialized `__provider` stored with this resource. */
  providerBytes: number;
  /** Replace: the id of the object it replaces. */
  oldId?: string;
  /** up/preview: the resources this one depends on (URNs), when any. */
  dependencies?: string[];
  /** up/preview: per input property, the resources its value came from, when any. */
  propertyDependencies?: Record<string, string[]>;
  /** Replaced with the old object deleted first. */
  deleteBeforeReplace?: boolean;
  /** Deleted from state only: retainOnDelete kept the object. */
  retained?: boolean;
  error?: string;
}

export interface PropertyChange {
  name: string;
  old: any;
  new: any;
  /** The leaves of the property that differ (dotted paths from the property's name). */
  leaves: LeafChange[];
}

export interface LeafChange {
  path: string;
  old: any;
  new: any;
}

/** A refresh finding: `update` = drift, `delete` = the object is gone. */
export interface Change {
  urn: string;
  name: string;
  type: string;
  kind: "update" | "delete";
  properties: PropertyChange[];
}

/** An operation an earlier run started and never saw finish (Pulumi's `pending_operations`). */
export interface PendingReport {
  urn: string;
  name: string;
  type: string;
  /** What was under way: `creating` may have left an object the state does not know. */
  op: "creating" | "updating" | "deleting" | "importing";
  /** The id when known (updating, deleting, importing). */
  id: string;
}

export interface Failure {
  urn?: string;
  name?: string;
  type?: string;
  message: string;
}

export interface Report {
  command: Command;
  project: string;
  stack: string;
  stateFile: string;
  preview: boolean;
  ok: boolean;
  /** One entry per step, in the order the steps finished. */
  resources: ResourceReport[];
  /** The program's exports (up/preview), secrets masked. */
  outputs: Record<string, any>;
  /** Count per op, e.g. {create: 2, same: 1}. */
  summary: Partial<Record<Op, number>>;
  /** Refresh findings (always present, empty for other commands). */
  changes: Change[];
  failures: Failure[];
  /** Operations an interrupted earlier run left pending, as found when this command started. */
  pendingOperations: PendingReport[];
  /** Pending operations still in the state when this command ended (what a next run will report). */
  pendingAfter: PendingReport[];
  /** Warnings, as the CLI prints them (e.g. about pending operations). */
  warnings: string[];
  durationMs: number;
  /** Peak resident memory of the dynamic-provider host (Linux), when a host was started. */
  hostPeakRssBytes?: number;
  /** Peak resident memory of the program process (Linux), when the program ran (up, preview). */
  programPeakRssBytes?: number;
  /** Peak resident memory of the harness process itself. */
  harnessPeakRssBytes?: number;
  /**
   * CPU time (user + system) of the harness process, of the host and of the program process
   * (Linux), in ms: unlike wall time, barely moved by other work on the machine, so benchmarks
   * compare these too.
   */
  harnessCpuMs?: number;
  hostCpuMs?: number;
  programCpuMs?: number;
  /** The harness process (the host and the program run in processes of their own). */
  pid: number;
  /** The dynamic-provider host process, when one was started (stopped when the harness ends). */
  hostPid?: number;
  /**
   * The process the program ran in (up, preview), as the Pulumi CLI's language host runs it;
   * stopped once the program has finished.
   */
  programPid?: number;
}
