import { Breadcrumb } from "../components/Breadcrumb";
import { ContactForm } from "../components/ContactForm";
import { contactAction } from "../lib/form-actions.server";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/contact";

export const action = contactAction;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Contact", description: "Send me a message: I read every one and answer by email." });

export default function Contact({ actionData }: Route.ComponentProps) {
  return (
    <div className="page narrow">
      <Breadcrumb section={{ label: "Contact" }} />
      <h1>Contact</h1>
      <p className="lede">Questions, ideas, a book I should read? Write to me and I'll answer by email.</p>
      <ContactForm key={actionData ? "answered" : "new"} result={actionData} />
    </div>
  );
}
