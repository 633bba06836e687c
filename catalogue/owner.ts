/**
 * The owner as content/site.yaml names them: the name that signs the newsletter and the address
 * that receives contact messages (and sends mail, unless MAIL_FROM says otherwise). The site's
 * schema is made with these fields; catalogue/owner-file.ts reads them for the server and scripts.
 */
import { z } from "zod";

export const ownerFields = {
  name: z.string().trim().min(1, "must not be empty"),
  email: z.email(),
};

export type Owner = { name: string; email: string };
