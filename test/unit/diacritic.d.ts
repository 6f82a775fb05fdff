/** The library the build stands in for (src/shims/diacritic.ts), as the shims test compares the two: no types of its own. */
declare module 'diacritic' {
  const diacritic: { clean(input: string): string };
  export default diacritic;
}
