import { Writable } from "node:stream";
import pino from "pino";
import { renderToString } from "react-dom/server";
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponse, RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { handleError } from "./entry.server";
import { ErrorBoundary } from "./root";
import { type RequestInfo, requestContext } from "./services.server";

const rootData = {
  siteName: "Bodima",
  siteUrl: "https://bodima.example",
  requestId: "ab12cd34",
  user: null,
  supportEmail: "support@bodima.lk",
};

function renderRootError(error: unknown): string {
  const Stub = createRoutesStub([
    { id: "root", path: "/", Component: () => null, ErrorBoundary: ErrorBoundary as never },
  ]);
  return renderToString(<Stub hydrationData={{ loaderData: { root: rootData }, errors: { root: error } }} />);
}

describe("root error page", () => {
  it("shows an unexpected error with the request id and no stack trace", () => {
    const html = renderRootError(new Error("database exploded at db.server.ts:42"));
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Reference: ab12cd34");
    expect(html).not.toContain("database exploded");
    expect(html).not.toContain("db.server.ts");
  });

  it("shows not-found text without a reference for a 404", () => {
    const html = renderRootError(new ErrorResponse(404, "Not Found", null));
    expect(html).toContain("Page not found");
    expect(html).not.toContain("Reference:");
  });
});

describe("handleError", () => {
  it("logs an unexpected error with the same request id", () => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ base: undefined }, stream);
    const context = new RouterContextProvider();
    context.set(requestContext, { log: logger.child({ requestId: "ab12cd34" }) } as unknown as RequestInfo);
    handleError(new Error("boom"), { request: new Request("http://x/browse"), params: {}, context } as never);
    const entry = JSON.parse(lines[0]);
    expect(entry.requestId).toBe("ab12cd34");
    expect(entry.err.message).toBe("boom");
    expect(entry.url).toBe("http://x/browse");
  });
});
