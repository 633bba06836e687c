import { Transform } from "node:stream";

const HEAD_END = "</head>";
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/**
 * The document as React writes it, less the `<link rel="modulepreload">` tags React Router's
 * `<Scripts/>` puts in the head of a hydrating page.
 *
 * Why: the preloads are fetched at high priority from the very first bytes, so on a slow phone
 * link the ~118 kB gzip runtime shares the bandwidth with the page itself and Lighthouse's mobile
 * simulation counts all of it before the first paint (FCP 2.1 s instead of 0.7 s). Without them
 * the module script at the end of `<body>` fetches the same files after the page has painted;
 * the page works without JavaScript meanwhile (links, forms and filters are plain HTML), and
 * React takes over a few round trips later.
 *
 * Only the head is rewritten: everything after `</head>` streams through untouched.
 */
export function withoutModulePreloads(): Transform {
  let pending: Buffer[] = [];
  let headDone = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (headDone) return callback(null, chunk);
      pending.push(chunk);
      // The head ends at an ASCII tag, so cutting there never splits a UTF-8 character.
      const buffered = Buffer.concat(pending);
      const end = buffered.indexOf(HEAD_END);
      if (end === -1) {
        pending = [buffered];
        return callback();
      }
      headDone = true;
      pending = [];
      const head = buffered.subarray(0, end).toString("utf8").replace(MODULE_PRELOAD, "");
      callback(null, Buffer.concat([Buffer.from(head, "utf8"), buffered.subarray(end)]));
    },
    flush(callback) {
      callback(null, pending.length ? Buffer.concat(pending) : undefined);
    },
  });
}
