import { REMOTE_FOLLOW_PATH } from "../../catalogue/handle.ts";

/** The standard remote follow: the reader names their server, which shows its own follow button. */
export function FollowForm({ address, typed }: { address: string; typed?: string }) {
  return (
    <form className="follow-form" method="get" action={REMOTE_FOLLOW_PATH}>
      <label htmlFor="follow-server">
        Follow <strong>{address}</strong> on Mastodon or another fediverse server
      </label>
      <span className="follow-row">
        <input
          id="follow-server"
          name="server"
          type="text"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="mastodon.social"
          defaultValue={typed}
          required
          maxLength={253}
        />
        <button type="submit">Follow</button>
      </span>
    </form>
  );
}
