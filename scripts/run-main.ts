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

/**
 * The main of a command on one file (npm run backup / restore -- <file>): the usage without exactly one argument, the
 * server's configuration, and `run`'s report printed; a refusal of `refusal`'s kind printed as it is, exit code 1.
 */
export function fileCommand<C>(usage: string, configOf: () => C | undefined, refusal: new (...args: never[]) => Error, run: (config: C, file: string) => Promise<string>): () => Promise<number> {
  return async () => {
    const file = process.argv[2]?.trim();
    if (!file || process.argv.length > 3) {
      console.error(usage);
      return 1;
    }
    const config = configOf();
    if (!config) return 1;
    try {
      console.log(await run(config, file));
      return 0;
    } catch (error) {
      if (!(error instanceof refusal)) throw error;
      console.error(error.message);
      return 1;
    }
  };
}
