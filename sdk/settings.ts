// Connection settings of SDK functions, read when a function is called: stack config `frontdoor:*`
// inside a Pulumi program (runtime.getConfig answers undefined outside one), then environment variables.
// Nothing is captured: every call reads them anew.
import * as pulumi from "@pulumi/pulumi";
import { type RawSettings, readSettings } from "../provider/config";

export function programSettings(): RawSettings {
  return readSettings((key) => pulumi.runtime.getConfig(key));
}
