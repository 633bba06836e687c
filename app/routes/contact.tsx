import { sendMessage } from "../../services/contact/send.ts";
import { ContactForm } from "../components/ContactForm.tsx";
import { Page } from "../components/Page.tsx";
import { formHeaders, submitForm } from "../lib/form-actions.server.ts";
import { contactClientAction } from "../lib/form-client.ts";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/contact";

export const handle = pageHandle("contact", { hydrate: true });

export const action = (args: Route.ActionArgs) => submitForm("contact", sendMessage, args);
export const clientAction = contactClientAction;
export const headers = formHeaders;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Contact" });

export default function Contact() {
  return (
    <Page className="page narrow" title="Contact" intro="contact">
      <ContactForm />
    </Page>
  );
}
