import { pathToFileURL } from 'node:url';

/** Runs a command's main when its file is the one started (not when a test imports it); exits with its code. */
export function runIfMain(moduleUrl: string, main: () => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
