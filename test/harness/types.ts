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
  durationMs: number;
  /** Peak resident memory of the dynamic-provider host (Linux), when a host was started. */
  hostPeakRssBytes?: number;
  /** Peak resident memory of the harness process itself. */
  harnessPeakRssBytes?: number;
  /**
   * CPU time (user + system) of the harness process and of the host (Linux), in ms: unlike wall
   * time, barely moved by other work on the machine, so benchmarks compare these too.
   */
  harnessCpuMs?: number;
  hostCpuMs?: number;
  /** The harness process (the host is another process). */
  pid: number;
}
