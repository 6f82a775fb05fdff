// object.entries as node-polyglot (react-admin's translations) uses it, for the build (scripts/stand-ins.ts aliases the
// package here): every browser the console supports has Object.entries, and the polyfill's own dependencies
// (get-intrinsic, call-bind, define-properties...) are about 17 KB of the signed-in console's first load.
module.exports = function entries(object) {
  return Object.entries(object);
};
