import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { type Owner, ownerFields } from "./owner.ts";

export function readOwner(root: string): Owner {
  const file = join(root, "content/site.yaml");
  const result = z.object(ownerFields).safeParse(parseYaml(readFileSync(file, "utf8")));
  if (!result.success) throw new Error(`${file}: ${z.prettifyError(result.error)}`);
  return result.data;
}
