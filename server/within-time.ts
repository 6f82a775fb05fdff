/** `work`'s answer, or a rejection with `what` once `ms` have passed (the work itself is not stopped). */
export function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
