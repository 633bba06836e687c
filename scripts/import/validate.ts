import { brokenReferenceProblem } from "../../catalogue/disk.ts";
import { buildCatalogue, ContentError, type ContentFile } from "../../catalogue/load.ts";
import { summarizeCatalogue } from "../../catalogue/summary.ts";

export type Refused = { path: string; problem: string };

function firstProblem(files: ContentFile[], imageExists: (sitePath: string) => boolean): ContentError | null {
  try {
    const [broken] = summarizeCatalogue(buildCatalogue(files), imageExists).broken;
    return broken ? new ContentError(broken.file, broken.field, brokenReferenceProblem(broken)) : null;
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
}

export function refuseInvalid(
  site: readonly ContentFile[],
  siteYaml: ContentFile | null,
  planned: readonly ContentFile[],
  imageExists: (sitePath: string) => boolean,
): { accepted: ContentFile[]; refused: Refused[] } {
  const base = site.map((file) => (siteYaml && file.path === siteYaml.path ? siteYaml : file));
  let accepted = [...planned];
  const refused: Refused[] = [];
  for (;;) {
    const problem = firstProblem([...base, ...accepted], imageExists);
    if (!problem) return { accepted, refused };
    if (!accepted.some((file) => file.path === problem.file)) {
      throw new ContentError(problem.file, problem.field, `${problem.problem} (after the import's changes)`);
    }
    accepted = accepted.filter((file) => file.path !== problem.file);
    refused.push({ path: problem.file, problem: problem.message.slice(problem.file.length + 2) });
  }
}
