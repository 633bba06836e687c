/** A real DNS server on 127.0.0.1 (dns2, over UDP) that answers TXT questions from a zone the test changes as it goes. */
import { createServer, Packet } from "dns2";

export type DnsZone = Map<string, string[][]>;

export type DnsServer = {
  /** For dns.Resolver#setServers and the owner's `--server`. */
  address: string;
  /** TXT records by lower-case name without the final dot; each record is its strings. */
  zone: DnsZone;
  stop(): Promise<void>;
};

/** The records of zone file lines as `npm run newsletter -- dns` prints them: `name. TXT "…" "…"`. */
export function zoneOf(lines: string): DnsZone {
  const zone: DnsZone = new Map();
  for (const [, name = "", strings = ""] of lines.matchAll(/^(\S+)\. TXT ((?:"[^"]*" ?)+)$/gm)) {
    const record = [...strings.matchAll(/"([^"]*)"/g)].map(([, text = ""]) => text);
    zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []), record]);
  }
  return zone;
}

export async function startDns(zone: DnsZone = new Map()): Promise<DnsServer> {
  const server = createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      for (const question of request.questions) {
        if (question.type !== Packet.TYPE.TXT) continue;
        for (const data of zone.get(question.name.toLowerCase()) ?? []) {
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, data }));
        }
      }
      void send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return { address: `127.0.0.1:${udp?.port}`, zone, stop: () => server.close() };
}
