// The serialized provider of this kind is `require(<this module>)`: keep it one line.
import { providerFor } from "../dynamic";
export = providerFor("AuthProvider");
