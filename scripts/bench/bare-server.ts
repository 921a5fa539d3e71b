// Phase (a)'s baseline, started by scripts/bench.ts in a process of its own (a
// server in the benchmark's process would share its event loop with the load
// generator): node:http answering every request with the bytes the app sent
// for its stylesheet, encoded as the app encoded them, and nothing else.
//   node scripts/bench/bare-server.ts PORT BODY_FILE CONTENT_TYPE [CONTENT_ENCODING]
import fs from "node:fs";
import http from "node:http";

const [port, bodyFile, contentType, contentEncoding] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile);
const headers: http.OutgoingHttpHeaders = { "content-type": contentType, "content-length": body.length };
if (contentEncoding) headers["content-encoding"] = contentEncoding;

http
  .createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  })
  .listen(Number(port), "127.0.0.1");
