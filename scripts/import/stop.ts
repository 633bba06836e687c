import { type ParseArgsConfig, parseArgs } from "node:util";
import { ContentError, orContentError } from "../../catalogue/load.ts";

export class Stop extends Error {
  code = 1;
}

export function stop(message: string, code = 1): never {
  throw Object.assign(new Stop(message), { code });
}

/** What `attempt` gives, or a stop with the message `problem` makes of its error. */
export function orStop<T>(attempt: () => T, problem: (error: NodeJS.ErrnoException) => string, code = 1): T {
  try {
    return attempt();
  } catch (error) {
    return stop(problem(error as NodeJS.ErrnoException), code);
  }
}

export const parsedOrStop = <Config extends ParseArgsConfig>(config: Config, usage: string) =>
  orStop(
    () => parseArgs(config),
    (error) => `${error.message}\n\n${usage}`,
    2,
  );

export function contentOrStop<T>(load: () => T): T {
  const read = orContentError(load);
  if (read instanceof ContentError)
    stop(`The existing content has a problem; fix it first (npm run check:content):\n${read.message}`);
  return read;
}

export function scaleOption(text: string): number {
  const scale = Number(text);
  if (!(scale > 0 && scale <= 10)) stop(`--scale must be a number above 0 and at most 10, not "${text}".`, 2);
  return scale;
}
