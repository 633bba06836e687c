type FormResult = { ok: true; status: number } | { ok: false; status: number; error: string; field?: string };

/** Posts a form's fields to the API; a network failure is status 0. */
export async function postJson(path: string, body: Record<string, string>): Promise<FormResult> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    if (response.ok) return { ok: true, status: response.status };
    const answer = (await response.json().catch(() => ({}))) as { error?: unknown; field?: unknown };
    return {
      ok: false,
      status: response.status,
      error: typeof answer.error === "string" ? answer.error : "",
      field: typeof answer.field === "string" ? answer.field : undefined,
    };
  } catch {
    return { ok: false, status: 0, error: "" };
  }
}
