import { z } from "zod";

export const ownerFields = {
  name: z.string().trim().min(1, "must not be empty"),
  email: z.email(),
};

export type Owner = { name: string; email: string };
