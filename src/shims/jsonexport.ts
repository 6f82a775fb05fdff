/**
 * jsonexport as the built console uses it (scripts/stand-ins.ts aliases the package here for the build): react-admin's
 * default exporter (ra-core defaultExporter) writes CSV with it, and every list of the console either exports with
 * its own columns, headed in the user's language (src/custom/csv.ts), or has no export (exporter={false}). The
 * library is about 5 KB of the moves list's first load; this stand-in says so if anything ever calls it.
 */
export default function jsonExport(): never {
  throw new Error("jsonexport: the console's lists export with src/custom/csv.ts; react-admin's default exporter is not in the build (src/shims/jsonexport.ts)");
}
