// Placeholder: the OpenZiti Edge management API mock is being written (owned by the edge-mock work).
import type { MockApi, MockRequest, MockResponse } from "../types";

export interface EdgeMockOptions {
  /** Username and password of the built-in admin identity. */
  adminUsername: string;
  adminPassword: string;
  /** API session lifetime (sliding), seconds. Default 1800. */
  sessionTtlSeconds?: number;
}

export class EdgeMock implements MockApi {
  constructor(readonly options: EdgeMockOptions) {}
  handle(_req: MockRequest): MockResponse | undefined {
    return undefined;
  }
}
