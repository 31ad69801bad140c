// Placeholder: the search (`_search`) mock for event data is being written (owned by the events work).
import type { MockApi, MockRequest, MockResponse } from "../types";

export interface SearchMockOptions {
  username: string;
  password: string;
}

export class SearchMock implements MockApi {
  constructor(readonly options: SearchMockOptions) {}
  handle(_req: MockRequest): MockResponse | undefined {
    return undefined;
  }
}
