import { checkSync } from "recheck";
import { describe, expect, test } from "vitest";
import {
  EMAIL_PATTERN,
  emailKey,
  isValidEmail,
  LIMITS,
  MESSAGES,
  normalizeContact,
  normalizeEmail,
  REPLY_LIMITS,
  validateContact,
  validateReply,
  validateSignup,
} from "../../rules/forms.ts";

const valid = { email: "reader@example.com", subject: "Hello", body: "I liked your notes." };

describe("messages", () => {
  test("the form messages are exactly the product's defined wording", () => {
    expect(MESSAGES.emailRequired).toBe("Please enter your email.");
    expect(MESSAGES.emailInvalid).toBe("Please enter a valid email.");
    expect(MESSAGES.subjectRequired).toBe("Please enter a subject.");
    expect(MESSAGES.messageRequired).toBe("Please enter a message.");
    expect(MESSAGES.emailUsed).toBe("Sorry, this email was already used.");
    expect(MESSAGES.sendFailed).toBe("Sorry, email failed to send.");
  });

  test("the rate-limit, network and server messages never claim the email was used", () => {
    for (const message of [MESSAGES.rateLimited, MESSAGES.network, MESSAGES.serverError]) {
      expect(message).not.toBe(MESSAGES.emailUsed);
      expect(message.toLowerCase()).not.toContain("already used");
      expect(message.length).toBeGreaterThan(10);
    }
  });
});

describe("email pattern", () => {
  test.each([
    "a@b.co",
    "first.last@example.com",
    "user+tag@sub.domain.org",
    "o'brien@example.ie",
    "user@[192.168.0.1]",
    "user@[255.255.255.255]",
    "x_y-z@my-site.travel",
    "ünïcode@example.com",
  ])("accepts %s", (email) => {
    expect(isValidEmail(email)).toBe(true);
    expect(validateSignup(email)).toBeNull();
  });

  test.each([
    "plain",
    "@example.com",
    "user@",
    "user@example",
    "user@example.c",
    "user@example.c0m",
    "user@@example.com",
    "us er@example.com",
    "user@exa mple.com",
    ".user@example.com",
    "user.@example.com",
    "us..er@example.com",
    "user@example..com",
    "user@.example.com",
    "user@[256.1.1.1]",
    "user@[1.2.3]",
    "user@192.168.0.1",
    '"quoted"@example.com',
    "a,b@example.com",
    "a@b.com,c@d.com",
    "a<b>@example.com",
    "user@exa\nmple.com",
    "user\r\n@example.com",
    "user\u0000@example.com",
    "user@example.com\u0007",
    "\ud800@example.com",
    "a\udc00b@example.com",
  ])("refuses %j with 'Please enter a valid email.'", (email) => {
    expect(isValidEmail(email)).toBe(false);
    expect(validateSignup(email)).toEqual({ field: "email", error: "Please enter a valid email." });
  });

  const INVISIBLE = {
    "left-to-right embedding": "\u202a",
    "right-to-left embedding": "\u202b",
    "pop directional formatting": "\u202c",
    "left-to-right override": "\u202d",
    "right-to-left override": "\u202e",
    "left-to-right isolate": "\u2066",
    "right-to-left isolate": "\u2067",
    "first strong isolate": "\u2068",
    "pop directional isolate": "\u2069",
    "left-to-right mark": "\u200e",
    "right-to-left mark": "\u200f",
    "Arabic letter mark": "\u061c",
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "zero-width no-break space": "\ufeff",
    "soft hyphen": "\u00ad",
  };

  test.each(Object.entries(INVISIBLE))("an address holding a %s anywhere is refused", (_name, character) => {
    for (const email of [
      `${character}user@example.com`,
      `us${character}er@example.com`,
      `user${character}@example.com`,
      `first.${character}last@example.com`,
      `user@${character}example.com`,
      `user@exam${character}ple.com`,
    ]) {
      expect(isValidEmail(email), JSON.stringify(email)).toBe(false);
      expect(validateSignup(email)).toEqual({ field: "email", error: "Please enter a valid email." });
      expect(validateContact({ email, subject: "Hello", body: "Hi" })?.field).toBe("email");
    }
  });

  test("an address shown reversed by a right-to-left override is refused, the same letters without it accepted", () => {
    expect(isValidEmail("moc.elpmaxe@\u202eresu")).toBe(false);
    expect(isValidEmail("resu\u202e@example.com")).toBe(false);
    expect(isValidEmail("resu@example.com")).toBe(true);
  });

  test("the pattern cannot backtrack catastrophically: its matching time is proven linear", () => {
    // recheck's automaton analysis is a proof, not a timing, so a busy machine cannot fail it.
    const analysis = checkSync(EMAIL_PATTERN.source, EMAIL_PATTERN.flags, { checker: "automaton", timeout: null });
    expect(analysis.status === "safe" && analysis.complexity.type).toBe("linear");
  });

  test("long hostile input is refused", () => {
    const hostile = [
      `${"a".repeat(20_000)}@`,
      `a@${"a.".repeat(10_000)}`,
      `a@${"a-".repeat(10_000)}!`,
      `${"a.".repeat(10_000)}@x`,
    ];
    for (const input of hostile) expect(EMAIL_PATTERN.test(input)).toBe(false);
  });
});

describe("sign-up", () => {
  test("an empty or blank email gives 'Please enter your email.'", () => {
    for (const email of ["", " ", "\t\n "]) {
      expect(validateSignup(email)).toEqual({ field: "email", error: "Please enter your email." });
    }
  });

  test("a pattern failure gives 'Please enter a valid email.'", () => {
    expect(validateSignup("nope")).toEqual({ field: "email", error: "Please enter a valid email." });
  });

  test("the email is trimmed before it is checked", () => {
    expect(validateSignup("  reader@example.com \n")).toBeNull();
    expect(normalizeEmail("  reader@example.com \n")).toBe("reader@example.com");
  });

  test("an email over 254 characters is refused, 254 is accepted", () => {
    const at254 = `${"a".repeat(64)}@${"b".repeat(185)}.com`;
    expect(at254).toHaveLength(LIMITS.emailMaxLength);
    expect(validateSignup(at254)).toBeNull();
    expect(validateSignup(` ${at254} `)).toBeNull();
    expect(validateSignup(`a${at254}`)).toEqual({ field: "email", error: MESSAGES.emailTooLong });
  });

  test("the uniqueness key ignores case and surrounding spaces", () => {
    expect(emailKey(" Reader@Example.COM ")).toBe("reader@example.com");
    expect(emailKey("reader@example.com")).toBe(emailKey("READER@EXAMPLE.COM"));
  });
});

describe("contact", () => {
  test("a complete message passes", () => {
    expect(validateContact(valid)).toBeNull();
  });

  test("the problems are reported in the order email empty, email invalid, subject empty, message empty", () => {
    const empty = { email: "", subject: "", body: "" };
    expect(validateContact(empty)).toEqual({ field: "email", error: "Please enter your email." });
    expect(validateContact({ ...empty, email: "bad" })).toEqual({
      field: "email",
      error: "Please enter a valid email.",
    });
    expect(validateContact({ ...empty, email: valid.email })).toEqual({
      field: "subject",
      error: "Please enter a subject.",
    });
    expect(validateContact({ ...empty, email: valid.email, subject: "Hi" })).toEqual({
      field: "body",
      error: "Please enter a message.",
    });
  });

  test("blank subject and blank message count as empty", () => {
    expect(validateContact({ ...valid, subject: "   " })?.error).toBe("Please enter a subject.");
    expect(validateContact({ ...valid, body: " \n\t " })?.error).toBe("Please enter a message.");
  });

  test("the length and line rules come after the four required checks (email, valid email, subject, message)", () => {
    const longEmail = `${"a".repeat(250)}@example.com`;
    expect(validateContact({ email: longEmail, subject: "", body: "" })?.error).toBe("Please enter a subject.");
    expect(validateContact({ email: longEmail, subject: "Hi", body: "" })?.error).toBe("Please enter a message.");
    expect(validateContact({ email: longEmail, subject: "Hi", body: "x" })).toEqual({
      field: "email",
      error: MESSAGES.emailTooLong,
    });
    expect(validateContact({ ...valid, subject: "a\nb", body: "" })?.error).toBe("Please enter a message.");
  });

  test.each([
    "Hello\r\nBcc: victim@example.com",
    "Hello\nthere",
    "Hello\rthere",
    "Trailing newline\n",
    "\r\nLeading",
    "Next line\u0085here",
    "Line\u2028separator",
    "Paragraph\u2029separator",
  ])("a subject with a line break (%j) is refused with a clear message", (subject) => {
    expect(validateContact({ ...valid, subject })).toEqual({
      field: "subject",
      error: "Please keep the subject on one line.",
    });
  });

  test("a subject with other control characters is refused; a tab is allowed", () => {
    expect(validateContact({ ...valid, subject: "a\u0000b" })).toEqual({
      field: "subject",
      error: MESSAGES.subjectControl,
    });
    expect(validateContact({ ...valid, subject: "a\u001bb" })?.field).toBe("subject");
    expect(validateContact({ ...valid, subject: "a\ud800b" })?.error).toBe(MESSAGES.subjectControl);
    expect(validateContact({ ...valid, subject: "a\tb \u{1F600}" })).toBeNull();
  });

  test("subject at most 200 characters, message at most 5,000", () => {
    expect(validateContact({ ...valid, subject: "s".repeat(200) })).toBeNull();
    expect(validateContact({ ...valid, subject: "s".repeat(201) })).toEqual({
      field: "subject",
      error: MESSAGES.subjectTooLong,
    });
    expect(validateContact({ ...valid, subject: `  ${"s".repeat(200)}  ` })).toBeNull();
    expect(validateContact({ ...valid, body: "m".repeat(5000) })).toBeNull();
    expect(validateContact({ ...valid, body: "m".repeat(5001) })).toEqual({
      field: "body",
      error: MESSAGES.messageTooLong,
    });
  });

  test("the contact email follows the sign-up pattern", () => {
    expect(validateContact({ ...valid, email: "user@[10.0.0.1]" })).toBeNull();
    expect(validateContact({ ...valid, email: "user@localhost" })?.error).toBe("Please enter a valid email.");
  });

  test("normalizeContact trims email and subject and keeps the message as typed", () => {
    expect(normalizeContact({ email: " a@b.co ", subject: "  Hi  ", body: "  line\n" })).toEqual({
      email: "a@b.co",
      subject: "Hi",
      body: "  line\n",
    });
  });
});

describe("reply", () => {
  const reply = { name: "Sample Reader", site: "", email: "reader@example.com", text: "A reply." };
  const problemOf = (overrides: Partial<typeof reply>) => validateReply({ ...reply, ...overrides });

  test("a name, an address and words are enough; a site is optional and may be http or https", () => {
    expect(problemOf({})).toBeNull();
    expect(problemOf({ site: "https://reader.example/" })).toBeNull();
    expect(problemOf({ site: " http://reader.example " })).toBeNull();
  });

  test("each missing field is named in the order the form asks for it", () => {
    expect(problemOf({ name: " ", email: "", text: "" })).toEqual({ field: "name", error: MESSAGES.nameRequired });
    expect(problemOf({ email: "", text: "" })).toEqual({ field: "email", error: MESSAGES.emailRequired });
    expect(problemOf({ text: "\n " })).toEqual({ field: "text", error: MESSAGES.replyRequired });
  });

  test("a site that is no web address is refused, a javascript: one too", () => {
    for (const site of ["javascript:alert(1)", "reader.example", "ftp://reader.example/", "data:text/html,x"]) {
      expect(problemOf({ site })).toEqual({ field: "site", error: MESSAGES.siteInvalid });
    }
  });

  test("a name of more than one line or with control characters is refused, as it goes into a mail subject", () => {
    for (const name of ["Sample\r\nBcc: x@example.com", "Sample\nReader", "Sample\u2028Reader", "Sample\tReader"]) {
      expect(problemOf({ name })).toEqual({ field: "name", error: MESSAGES.nameMultiline });
    }
  });

  test("the limits are the store's, each at its bound accepted and one past it refused", () => {
    expect(problemOf({ name: "n".repeat(REPLY_LIMITS.nameMaxLength) })).toBeNull();
    expect(problemOf({ name: "n".repeat(REPLY_LIMITS.nameMaxLength + 1) })?.error).toBe(MESSAGES.nameTooLong);
    const long = `https://reader.example/${"p".repeat(REPLY_LIMITS.urlMaxLength)}`;
    expect(problemOf({ site: long })?.error).toBe(MESSAGES.siteTooLong);
    expect(problemOf({ text: "t".repeat(REPLY_LIMITS.textMaxLength) })).toBeNull();
    expect(problemOf({ text: "t".repeat(REPLY_LIMITS.textMaxLength + 1) })?.error).toBe(MESSAGES.replyTooLong);
    expect(problemOf({ email: `${"e".repeat(LIMITS.emailMaxLength)}@example.com` })?.error).toBe(MESSAGES.emailTooLong);
  });
});
