// Placeholder: the OpenZiti Edge management API client (being written with the Edge resources).
import type { RawSettings } from "../config";
import { ProviderError } from "./errors";

export class EdgeClient {
  constructor(readonly settings: RawSettings) {}
  async close(): Promise<void> {}
  notImplemented(): never {
    throw new ProviderError("the Edge management API client is not implemented yet");
  }
}
