// The Pulumi package name of the plugin (`frontdoor:index:<Kind>`), in a module of its own: the
// plugin's start needs the name, not the schema generator (schema.ts loads every function's definition).
export const PACKAGE = "frontdoor";
