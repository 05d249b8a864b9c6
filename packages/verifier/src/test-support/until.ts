/** Until `done()` holds (socket events arrive on real time), at most 5 s. */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
