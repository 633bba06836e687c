/**
 * A real IMAP server for the tests: Debian's Dovecot (`dovecot-imapd`), started in a temporary folder
 * with its own configuration, listening on 127.0.0.1 and a free port, one passwd-file user whose
 * maildir lives in that folder. It runs as the user running the tests (as Debian's `dovecot` users for root). `append` files a message into a folder over IMAP.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import { freePort } from "./free-port.ts";

const DOVECOT = "/usr/sbin/dovecot";

export type ImapServer = {
  /** imap://user:password@127.0.0.1:port/INBOX, the form of BOUNCE_IMAP_URL. */
  url: string;
  append(raw: string | Buffer, folder?: string): Promise<void>;
  /** Each message of the folder as its raw text, or [] when the folder does not exist. */
  messages(folder: string): Promise<string[]>;
  stop(): Promise<void>;
};

async function listening(port: number, log: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const open = await new Promise<boolean>((done) => {
      const socket = createConnection(port, "127.0.0.1");
      socket.once("connect", () => done(!!socket.end()));
      socket.once("error", () => done(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`Dovecot did not listen on ${port}: ${existsSync(log) ? readFileSync(log, "utf8") : ""}`);
}

export async function startImap(): Promise<ImapServer> {
  if (!existsSync(DOVECOT)) {
    throw new Error("Dovecot is not installed: `apt-get install dovecot-imapd` (Debian).");
  }
  const folder = mkdtempSync(join(tmpdir(), "site-imap-"));
  // Dovecot refuses root for logins and mail: as root it runs as Debian's own unprivileged users.
  const asRoot = userInfo().uid === 0;
  const internalUser = asRoot ? "dovecot" : userInfo().username;
  const loginUser = asRoot ? "dovenull" : internalUser;
  const id = (flag: string) => execFileSync("id", [flag, internalUser], { encoding: "utf8" }).trim();
  const [uid, gid, group] = [Number(id("-u")), Number(id("-g")), id("-gn")];
  const [user, password] = ["bounces", "test-password"];
  const port = await freePort();
  mkdirSync(join(folder, "run"));
  // Dovecot's auth process, which runs as its internal user, reads the passwd file.
  chmodSync(folder, 0o711);
  mkdirSync(join(folder, "home"));
  chownSync(join(folder, "home"), uid, gid);
  writeFileSync(join(folder, "passwd"), `${user}:{PLAIN}${password}:${uid}:${gid}::${join(folder, "home")}::\n`);
  const config = join(folder, "dovecot.conf");
  writeFileSync(
    config,
    `base_dir = ${join(folder, "run")}
state_dir = ${join(folder, "state")}
log_path = ${join(folder, "dovecot.log")}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 0
default_internal_user = ${internalUser}
default_internal_group = ${group}
default_login_user = ${loginUser}
mail_location = maildir:${join(folder, "home", "Maildir")}
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${join(folder, "passwd")}
}
userdb {
  driver = passwd-file
  args = ${join(folder, "passwd")}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`,
  );
  const server = spawn(DOVECOT, ["-F", "-c", config], { stdio: "ignore" });
  try {
    await listening(port, join(folder, "dovecot.log"));
  } catch (error) {
    server.kill();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const url = `imap://${user}:${password}@127.0.0.1:${port}/INBOX`;

  async function withClient<T>(use: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      auth: { user, pass: password },
      logger: false,
    });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.logout();
    }
  }

  return {
    url,
    append: (raw, into = "INBOX") =>
      withClient(async (client) => {
        await client.append(into, raw);
      }),
    messages: (name) =>
      withClient(async (client) => {
        const folders = await client.list();
        if (!folders.some((entry) => entry.path === name)) return [];
        const { exists } = await client.mailboxOpen(name, { readOnly: true });
        if (exists === 0) return [];
        const raws: string[] = [];
        for await (const message of client.fetch("1:*", { source: true })) raws.push(message.source?.toString() ?? "");
        return raws;
      }),
    async stop() {
      const exited = new Promise((done) => server.once("exit", done));
      server.kill();
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
