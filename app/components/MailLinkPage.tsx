import { MESSAGES } from "../../rules/forms.ts";
import { useFormAnswer } from "../lib/form-client.ts";
import { FormError } from "./FormParts.tsx";
import { Page } from "./Page.tsx";

export const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

export function useMailLinkState<Answer extends { form: string; outcome: string }>(
  form: Answer["form"],
  loaded: string,
) {
  const { fetcher, answer } = useFormAnswer<Answer>(form);
  const unreadable = answer?.outcome === "unreadable";
  const state = answer && !unreadable ? answer.outcome : loaded;
  return { fetcher, state, unreadable };
}

export function MailLinkPage({ unreadable, children }: { unreadable: boolean; children: React.ReactNode }) {
  return (
    <Page className="page narrow">
      {unreadable && <FormError message={MESSAGES.formUnreadable} />}
      {children}
    </Page>
  );
}
