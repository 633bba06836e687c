import { brokenReferenceProblem } from "../../catalogue/disk.ts";
import { buildCatalogue, ContentError, type ContentFile, orContentError } from "../../catalogue/load.ts";
import { summarizeCatalogue } from "../../catalogue/summary.ts";

function firstProblem(files: ContentFile[], imageExists: (sitePath: string) => boolean): ContentError | null {
  const broken = orContentError(() => summarizeCatalogue(buildCatalogue(files), imageExists).broken[0]);
  if (!broken || broken instanceof ContentError) return broken ?? null;
  return new ContentError(broken.file, broken.field, brokenReferenceProblem(broken));
}

export function refuseInvalid<File extends ContentFile>(
  site: readonly ContentFile[],
  siteYaml: ContentFile | null,
  planned: readonly File[],
  imageExists: (sitePath: string) => boolean,
): { accepted: File[]; refused: { file: File; problem: string }[] } {
  const base = site.map((file) => (siteYaml && file.path === siteYaml.path ? siteYaml : file));
  let accepted = [...planned];
  const refused: { file: File; problem: string }[] = [];
  for (;;) {
    const problem = firstProblem([...base, ...accepted], imageExists);
    if (!problem) return { accepted, refused };
    const file = accepted.find((candidate) => candidate.path === problem.file);
    if (!file) throw new ContentError(problem.file, problem.field, `${problem.problem} (after the import's changes)`);
    accepted = accepted.filter((candidate) => candidate !== file);
    refused.push({ file, problem: problem.message.slice(problem.file.length + 2) });
  }
}
