import { ContactForm } from "../components/ContactForm.tsx";
import { Page } from "../components/Page.tsx";
import { pageMeta } from "../lib/meta.ts";
import { pageHandle } from "../lib/page-handle.ts";
import type { Route } from "./+types/contact";

export const handle = pageHandle("contact", { hydrate: true });

export { contactAction as action, formHeaders as headers } from "../lib/form-actions.server.ts";
export { contactClientAction as clientAction } from "../lib/form-client.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Contact" });

export default function Contact() {
  return (
    <Page className="page narrow" title="Contact" intro="contact">
      <ContactForm />
    </Page>
  );
}
