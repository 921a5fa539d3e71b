import { describe, expect, it } from "vitest";
import { readForm } from "./read-form.server";

function post(body: string, contentType: string) {
  return new Request("http://localhost/contact", { method: "POST", headers: { "content-type": contentType }, body });
}

describe("readForm", () => {
  it("reads a form", async () => {
    const form = await readForm(post("name=Ravi&message=Hello", "application/x-www-form-urlencoded"));
    expect(form.get("name")).toBe("Ravi");
  });

  it("turns a malformed multipart body into a 400 with a plain message (it used to be a 500)", async () => {
    const thrown = await readForm(post("--xyz\r\nnot a part at all", "multipart/form-data; boundary=xyz")).catch(
      (error: unknown) => error,
    );
    // data() thrown from an action becomes an error response with its status.
    const response = thrown as { type: string; data: unknown; init: { status: number } };
    expect(response.init.status).toBe(400);
    expect(response.data).toBe("We could not read the form you sent. Please go back and try again.");
  });
});
