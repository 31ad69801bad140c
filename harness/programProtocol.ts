// The messages between the harness (program.ts) and the program process (programChild.ts), over the
// child's IPC channel (JSON). Config values, secret ones included, travel only here: never in the
// child's argv or environment, which `ps` shows.

type Props = Record<string, any>;

import type { Registration } from "./steps";

/** harness -> program: run the program (sent once). */
export interface StartMessage {
  kind: "start";
  programDir: string;
  project: string;
  stack: string;
  preview: boolean;
  /** Stack config without secret markers, and the keys of the secret values. */
  config: Record<string, string>;
  secretKeys: string[];
  /** Keep the stack frames of Pulumi's promises (--debug, PULUMI_DEBUG_PROMISE_LEAKS). */
  keepPromiseStacks: boolean;
}

/**
 * What the program asked for in one RegisterResource call, as plain values. The harness computes the
 * URN (from parent, type and name) and runs the step for custom resources.
 */
/** A registration as the program process sends it: the step's Registration before the harness gives it a URN. */
export type PlainRegistration = Omit<Registration, "urn"> & {
  /** The parent's URN, "" for none. */
  parent: string;
  custom: boolean;
};

/** program -> harness: one registration; `seq` pairs it with its answer. */
export interface RegisterMessage {
  kind: "register";
  seq: number;
  registration: PlainRegistration;
}

/** harness -> program: the answer to a registration, or why it failed. */
export type RegisteredMessage =
  | { kind: "registered"; seq: number; urn: string; id: string; outputs: Props }
  | { kind: "registered"; seq: number; error: string };

/** program -> harness: the program has finished (every registration answered). */
export interface DoneMessage {
  kind: "done";
  /** The program's exports, serialized (secret markers, unknowns in preview). */
  outputs: Props;
  /** Errors the program itself raised (not step failures). */
  errors: string[];
}

export type ToProgram = StartMessage | RegisteredMessage;
export type FromProgram = RegisterMessage | DoneMessage;
