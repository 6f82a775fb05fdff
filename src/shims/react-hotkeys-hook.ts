/**
 * react-hotkeys-hook as the built console uses it (scripts/stand-ins.ts aliases the package here for the build):
 * react-admin's menu items register their keyboard shortcut with it, and no menu item of the console has one, so
 * the hook is always called disabled; the library is about 2 KB of every page's first load. This stand-in does what
 * a disabled hook does (nothing), and says so if a shortcut is ever asked of it.
 */
export function useHotkeys(keys: unknown, _callback: unknown, options?: { enabled?: boolean }): (element: unknown) => void {
  if (options?.enabled !== false && (Array.isArray(keys) ? keys.length > 0 : Boolean(keys))) {
    throw new Error("useHotkeys: the console's build has no keyboard shortcuts (src/shims/react-hotkeys-hook.ts); use the library to add one");
  }
  return () => undefined;
}
