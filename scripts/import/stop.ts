/** How the import and export commands stop early: a message for the owner and an exit code. */
export class Stop extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export function stop(message: string, code = 1): never {
  throw new Stop(message, code);
}
