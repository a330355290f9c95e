/** The document closes after Remix's streamed data scripts (decision 162). */
import { describe, expect, it } from "vitest";
import { closeDocumentLast } from "../../app/lib/html-stream.server";

async function through(chunks: string[]): Promise<string> {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      c.close();
    },
  });
  return new Response(closeDocumentLast(body)).text();
}

describe("closeDocumentLast", () => {
  const doc = "<!DOCTYPE html><html><body><p>hé</p></body></html><script>stream()</script><script>close()</script>";
  const want = "<!DOCTYPE html><html><body><p>hé</p><script>stream()</script><script>close()</script></body></html>";

  it("moves the closing tags after the streamed scripts", async () => {
    expect(await through([doc])).toBe(want);
  });

  it("finds the closing tags split across chunks, at every split", async () => {
    for (let i = 1; i < doc.length; i++) expect(await through([doc.slice(0, i), doc.slice(i)])).toBe(want);
    expect(await through([...doc])).toBe(want);
  });

  it("leaves a stream without closing tags as it is", async () => {
    expect(await through(["<p>a</p>", "<p>b"])).toBe("<p>a</p><p>b");
  });
});
