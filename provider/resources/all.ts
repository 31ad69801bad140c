// Every resource kind's definition, in the order the schema, the SDK types and the docs list them.
// Generators and tools load them all from here; the engine loads one kind at a time (index.ts).
import type { ResourceDefinition } from "../resource";
import { resourceDefinition, resourceKinds } from "./index";

export const resourceDefinitions: ResourceDefinition<any, any>[] = resourceKinds.map(resourceDefinition);
