import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createEngine } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import tools from "../payments/tools.js";
import { createService } from "./service.js";

// The payments example's tools behind HTTP, on the embedded SQLite store: `npx tsx examples/http-service/server.ts`.
const approverToken = process.env.OBELISK_APPROVER_TOKEN;
if (approverToken === undefined || approverToken.length < 16) {
  console.error(
    "set OBELISK_APPROVER_TOKEN (16 characters or more): the secret of the people who approve plans",
  );
  process.exit(2);
}
const file = process.env.OBELISK_DB ?? ".obelisk/http-service.db";
mkdirSync(dirname(file), { recursive: true });
const engine = createEngine({ tools, store: createSqliteStore(file) });
const server = createService(engine, { approverToken });
server.listen(Number(process.env.PORT ?? 8080), () => {
  const address = server.address();
  console.log(`listening on ${typeof address === "object" && address !== null ? address.port : address}`);
});

// A graceful stop: no new connections; runs in flight are stopped (their callers get `cancelled`, their
// records end `interrupted`: after the restart, GET /runs/<id> shows one and POST /runs/<id>/resume
// finishes it); the store is closed last.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close();
    engine.close().then(
      () => {
        server.closeAllConnections();
        process.exit(0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
